import { mountStandalone } from '@finishline/shared/react';
import App from '../App';

/** This remote alone, without the shell (development harness and the deployed dist/index.html). */
void mountStandalone(App, __FINISHLINE_HARNESS_API_URL__);
