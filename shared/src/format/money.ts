/** Rupees as the organiser's screens show them: ₹1,23,456 (Indian grouping), paise only when there are any. */
export function formatRupees(value: number): string {
  const whole = Number.isInteger(Math.round(value * 100) / 100);
  return `₹${value.toLocaleString('en-IN', { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 })}`;
}
