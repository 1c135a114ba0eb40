// DOM matchers (toBeInTheDocument...) for the component tests; registered in scripts/jest.setup-dom.mjs.
import '@testing-library/jest-dom';
