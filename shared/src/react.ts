/** React-facing helpers of shared (hooks). Kept apart so the server never pulls React in. */
export {};
