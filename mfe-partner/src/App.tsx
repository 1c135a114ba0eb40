import type { ReactNode } from 'react';
import { Route } from 'react-router-dom';
import { PARTNER_PAGES, type SupplyFindableWait } from '@finishline/shared';
import { RemoteRoutes } from '@finishline/shared/react';
import { PartnerNav, type PartnerNavItem } from './app/PartnerNav';
import { SupplyEventPicker } from './app/SupplyEventPicker';
import { FindableWaitNotice } from './features/backlog/components/FindableWaitNotice';
import { RegistrationPage } from './features/registration/pages/RegistrationPage';
import { MySharePage } from './features/share/pages/MySharePage';
import { UploadPage } from './features/upload/pages/UploadPage';
import { ReviewPage } from './features/review/pages/ReviewPage';
import { VideosPage } from './features/videos/pages/VideosPage';

/**
 * The partner remote, exposed as './App': the photographer's pages, each in src/features/<feature>/,
 * under one partner menu. The event choice both supply screens share, and the notice of how long
 * until photos are findable when many wait (features/backlog), are composed in here (features never
 * import each other).
 */
const NAV: PartnerNavItem[] = PARTNER_PAGES.map(({ to, label }) => ({ to, label }));
const findableWait = (wait: SupplyFindableWait | null) => <FindableWaitNotice wait={wait} />;
/** The event picker of a supply page; a photographer sent to sign in comes back to `page`. */
const eventPickerOn = (page: string) => (value: number | null, onChange: (eventId: number) => void) => (
  <SupplyEventPicker value={value} onChange={onChange} redirectTo={page} />
);

const withNav = (page: ReactNode) => (
  <>
    <PartnerNav items={NAV} />
    {page}
  </>
);

export default function PartnerApp() {
  return (
    <RemoteRoutes banner={__FINISHLINE_BUILD_BANNER__}>
      <Route path="/registration" element={withNav(<RegistrationPage />)} />
      <Route path="/show_revenue" element={withNav(<MySharePage />)} />
      <Route path="/upload" element={withNav(<UploadPage eventPicker={eventPickerOn('/upload')} findableWait={findableWait} />)} />
      <Route path="/videos" element={withNav(<VideosPage eventPicker={eventPickerOn('/videos')} />)} />
      <Route path="/photos" element={withNav(<ReviewPage eventPicker={eventPickerOn('/photos')} findableWait={findableWait} />)} />
    </RemoteRoutes>
  );
}
