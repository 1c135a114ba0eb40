import { useCallback, useState } from 'react';

/**
 * The search text and the page of a searched, paged list: a new search starts again on the first
 * page (the page it was on may not exist among the matches).
 */
export function useSearchedPages() {
  const [search, setSearchText] = useState('');
  const [page, setPage] = useState(1);
  const setSearch = useCallback((text: string) => {
    setSearchText(text);
    setPage(1);
  }, []);
  return { search, setSearch, page, setPage };
}
