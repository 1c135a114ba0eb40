import { Spin } from 'antd';

/** 'Processing...' over the page while create order runs (spec: an overlay shows while calls run). */
export function ProcessingOverlayHost({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <div className="fl-processing" role="alert" aria-busy="true" style={{ position: 'fixed', inset: 0, zIndex: 2000, background: 'rgba(255,255,255,0.78)', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 12 }}>
      <Spin size="large" />
      <div style={{ fontSize: 16, fontWeight: 600 }}>Processing...</div>
    </div>
  );
}
