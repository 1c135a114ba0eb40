/* global window */
import '@testing-library/jest-dom/jest-globals';
// antd reads matchMedia for responsive grids; jsdom lacks it.
if (!window.matchMedia) {
  window.matchMedia = (query) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
}
