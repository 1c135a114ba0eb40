/** What shows while a page's code loads (a remote's App, a shell page): a screen tall, so the footer waits below the fold rather than jumping down when the page arrives (a layout shift). */
export function PagePlaceholder() {
  return (
    <div style={{ padding: 64, textAlign: 'center', minHeight: '100vh', boxSizing: 'border-box' }}>
      <span className="fl-spinner" role="status" aria-label="Loading" />
    </div>
  );
}
