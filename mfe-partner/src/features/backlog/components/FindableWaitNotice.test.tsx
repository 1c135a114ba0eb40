/**
 * The notice of how long until a photographer's photos are findable when many wait on the line: a
 * polite status region that says nothing within the promised minute and follows the page's poll.
 */
import { render, screen } from '@testing-library/react';
import { findableWaitMessage, type SupplyFindableWait } from '@finishline/shared';
import { FindableWaitNotice } from './FindableWaitNotice';

function renderNotice(wait: SupplyFindableWait | null) {
  const view = render(<FindableWaitNotice wait={wait} />);
  return { poll: (next: SupplyFindableWait | null) => view.rerender(<FindableWaitNotice wait={next} />) };
}

describe('the findable-wait notice', () => {
  it('is an empty polite status region while the line keeps its promise or nothing of theirs waits', () => {
    const { poll } = renderNotice(null);
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();
    poll({ waitingAhead: 12, photosPerMinute: 80, estimateSeconds: null });
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('says how long in minutes rounded up, follows the poll, and is no alert of its own', () => {
    const { poll } = renderNotice({ waitingAhead: 600, photosPerMinute: 100, estimateSeconds: 330 });
    expect(screen.getByRole('status')).toHaveTextContent(
      'Many photos are arriving right now: your photos will be findable in about 6 minutes. You can keep uploading.',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // The next poll: fewer ahead, under two minutes.
    poll({ waitingAhead: 150, photosPerMinute: 100, estimateSeconds: 90 });
    expect(screen.getByRole('status')).toHaveTextContent(findableWaitMessage(90)!);
    expect(screen.getByRole('status')).toHaveTextContent('in about a minute or two');

    // Within the promise again: the message goes, the region stays.
    poll({ waitingAhead: 40, photosPerMinute: 100, estimateSeconds: null });
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
