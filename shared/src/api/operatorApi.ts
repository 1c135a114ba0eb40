import { API_ROUTES } from './routes';
import { post } from '@finishline/shared/runtime';
import type {
  MyOrganiserRequestResult,
  OperatorEventsResult,
  OperatorRequestsResult,
  OrganiserRequestDecision,
  OrganiserRequestFields,
  OrganiserRequestView,
  StaffRoleRequest,
  StaffRoleResult,
} from '../types/operator';

/** "List your race" for any signed-in account, and the operator console's calls (operators only). */
export const operatorApi = {
  askToOrganise: (body: OrganiserRequestFields) => post<OrganiserRequestView>(API_ROUTES.organiserRequest, body),
  myRequest: () => post<MyOrganiserRequestResult>(API_ROUTES.myOrganiserRequest, {}),
  requests: () => post<OperatorRequestsResult>(API_ROUTES.operatorOrganiserRequests, {}),
  decide: (body: OrganiserRequestDecision) => post<OrganiserRequestView>(API_ROUTES.operatorDecideOrganiserRequest, body),
  setStaffRole: (body: StaffRoleRequest) => post<StaffRoleResult>(API_ROUTES.operatorStaffRole, body),
  events: () => post<OperatorEventsResult>(API_ROUTES.operatorEvents, {}),
};
