import { useEffect, useState } from 'react';

/** Spec columns: 5 for unlabeled, 3 otherwise; 3 below 1100px, 2 below 700px, 1 below 500px. */
export function columnsFor(width: number, unlabeled: boolean): number {
  if (width < 500) return 1;
  if (width < 700) return 2;
  if (width < 1100) return 3;
  return unlabeled ? 5 : 3;
}

export function useColumns(unlabeled: boolean): number {
  const [columns, setColumns] = useState(() => columnsFor(window.innerWidth, unlabeled));
  useEffect(() => {
    const update = () => setColumns(columnsFor(window.innerWidth, unlabeled));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [unlabeled]);
  return columns;
}
