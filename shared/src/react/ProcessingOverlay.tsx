import { Spin } from 'antd';

/** Full-screen overlay while a call runs (spec: 'Processing...'); the storefront and account remotes both show it. */
export function ProcessingOverlay() {
  return (
    <div
      className="fl-processing"
      role="alert"
      aria-busy="true"
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 2000,
        background: 'rgba(255,255,255,0.78)',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 12,
      }}
    >
      <Spin size="large" />
      <div style={{ fontSize: 16, fontWeight: 600 }}>Processing...</div>
    </div>
  );
}
