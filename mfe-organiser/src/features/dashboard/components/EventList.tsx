import { useMemo } from 'react';
import { Button, Input, Tag } from 'antd';
import { DASHBOARD_PAGE_SIZE, NO_MATCHING_RECORDS, type OrganiserEventListRow } from '@finishline/shared';
import { CsvButton, PhoneCardsTable, useSearchedPages } from '@finishline/shared/react';

const keepOnOneLine = () => ({ style: { whiteSpace: 'nowrap' as const } });

/** The spec's event list: the organiser's events, 15 per page, with a filter and Open. */
export function EventList({ events, onOpen, loading }: { events: OrganiserEventListRow[]; onOpen: (eventId: number) => void; loading: boolean }) {
  const { search: filter, setSearch: setFilter, page, setPage } = useSearchedPages();
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return needle ? events.filter((e) => `${e.event_name} ${e.event_location}`.toLowerCase().includes(needle)) : events;
  }, [events, filter]);
  const status = (e: OrganiserEventListRow) => (e.published ? 'Published' : 'Hidden until published');
  return (
    <section aria-label="Your events">
      <div className="fl-org-toolbar">
        <Input.Search
          aria-label="Filter events"
          placeholder="Filter by event or city"
          allowClear
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          style={{ maxWidth: 320 }}
        />
        <CsvButton
          fileName="events.csv"
          header={['Event', 'From', 'To', 'City', 'Searchable', 'Status']}
          rows={shown.map((e) => [e.event_name, e.event_from_date, e.event_to_date, e.event_location, e.issearchable ? 'Yes' : 'No', status(e)])}
        />
      </div>
      <PhoneCardsTable<OrganiserEventListRow>
        cardsLabel="Your events"
        cardHeadingColumn={1}
        rowKey="event_id"
        size="middle"
        loading={loading}
        dataSource={shown}
        scroll={{ x: 720 }}
        locale={{ emptyText: NO_MATCHING_RECORDS }}
        pagination={{ current: page, pageSize: DASHBOARD_PAGE_SIZE, onChange: setPage, showSizeChanger: false }}
        columns={[
          { title: 'Sl. No.', key: 'index', width: 70, render: (_v, _r, i) => (page - 1) * DASHBOARD_PAGE_SIZE + i + 1 },
          {
            title: 'Event',
            dataIndex: 'event_name',
            width: 240,
            render: (name: string, e) => (
              <Button type="link" style={{ padding: 0, whiteSpace: 'normal', textAlign: 'left' }} onClick={() => onOpen(e.event_id)}>
                {name}
              </Button>
            ),
          },
          // A date never breaks mid-value ("2027-01-" / "17"); a phone shows cards instead of the table.
          { title: 'From', dataIndex: 'event_from_date', width: 110, onCell: keepOnOneLine },
          { title: 'To', dataIndex: 'event_to_date', width: 110, onCell: keepOnOneLine },
          { title: 'City', dataIndex: 'event_location' },
          { title: 'Searchable', dataIndex: 'issearchable', width: 100, render: (v: number) => (v ? 'Yes' : 'No') },
          {
            title: 'Status',
            key: 'published',
            width: 170,
            render: (_v, e) => (e.published ? <Tag color="green">Published</Tag> : <Tag color="orange">Hidden until published</Tag>),
          },
        ]}
      />
    </section>
  );
}
