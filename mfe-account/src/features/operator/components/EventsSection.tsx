import { useEffect, useState } from 'react';
import { Alert, Space, Tag } from 'antd';
import { isApiError, operatorApi, type OperatorEventRow } from '@finishline/shared';
import { PhoneCardsTable } from '@finishline/shared/react';

const when = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-IN', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });

/** Every event at a glance: its state, its organisers and how far it got (photos, participants, paid orders). */
export function EventsSection({ refused, version }: { refused: (error: unknown) => boolean; version: number }) {
  const [events, setEvents] = useState<OperatorEventRow[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    operatorApi
      .events()
      .then(({ result }) => setEvents(result.events))
      .catch((error) => {
        if (refused(error)) return;
        setEvents([]);
        setFailure(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
      });
  }, [refused, version]);

  return (
    <section aria-labelledby="events-heading">
      <h2 id="events-heading" style={{ fontSize: 20 }}>
        Every event
      </h2>
      {failure ? <Alert type="error" showIcon message={failure} /> : null}
      <PhoneCardsTable<OperatorEventRow>
        cardsLabel="Events"
        rowKey="id"
        size="small"
        loading={events === null}
        dataSource={events ?? []}
        locale={{ emptyText: 'No events yet.' }}
        pagination={{ pageSize: 20, showSizeChanger: false }}
        columns={[
          { title: 'Event', key: 'name', render: (_v, e) => e.name },
          { title: 'Date', key: 'date', render: (_v, e) => <span style={{ whiteSpace: 'nowrap' }}>{when(e.fromDate)}</span> },
          {
            title: 'State',
            key: 'state',
            render: (_v, e) => (
              <Space size={4} wrap>
                <Tag color={e.published ? 'green' : 'default'}>{e.published ? 'Published' : 'Hidden from runners'}</Tag>
                {e.registrationOpen ? <Tag color="blue">Photographers may register</Tag> : null}
              </Space>
            ),
          },
          { title: 'Organisers', key: 'organisers', render: (_v, e) => (e.organisers.length > 0 ? e.organisers.join(', ') : 'None') },
          { title: 'Photos', key: 'photos', render: (_v, e) => e.photos.toLocaleString('en-IN') },
          { title: 'Participants', key: 'participants', render: (_v, e) => e.participants.toLocaleString('en-IN') },
          { title: 'Paid orders', key: 'orders', render: (_v, e) => e.paidOrders.toLocaleString('en-IN') },
        ]}
      />
    </section>
  );
}
