import { createStore } from 'jotai';

/** The one jotai store of the page; remotes render inside its Provider and share it. */
export const shellStore = createStore();
