/** The antd theme: set once by the shell (and by each remote's standalone harness). */
export const finishlineTheme = {
  token: {
    colorPrimary: '#e8572a',
    colorLink: '#e8572a',
    colorInfo: '#1f6feb',
    borderRadius: 8,
    fontFamily: "'Inter', 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
} as const;
