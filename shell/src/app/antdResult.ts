// A chunk of its own for antd's Result (see StatusResult.tsx).
export { Result } from 'antd';
