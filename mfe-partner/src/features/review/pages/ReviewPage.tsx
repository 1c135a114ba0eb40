import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { App as AntApp, Button, Card, Col, Empty, Image, Pagination, Popconfirm, Row, Segmented, Space, Spin, Statistic, Tag, Tooltip, Typography } from 'antd';
import {
  isApiError,
  readLocalSession,
  supplyApi,
  SUPPLY_PHOTOS_PER_PAGE,
  type SupplyPhoto,
  type SupplyFindableWait,
  type SupplyPhotosResult,
  type SupplyPhotoStatus,
} from '@finishline/shared';
import { useDocumentTitle } from '@finishline/shared/react';
import { BibEditor } from '../components/BibEditor';

const STATUS: Record<SupplyPhotoStatus, { text: string; color: string }> = {
  processing: { text: 'Processing', color: 'processing' },
  tagged: { text: 'Tagged', color: 'success' },
  unlabeled: { text: 'Unlabeled', color: 'warning' },
  failed: { text: 'Failed', color: 'error' },
};
type Filter = 'all' | SupplyPhotoStatus;
const REFRESH_WHILE_PROCESSING_MS = 4000;

/**
 * /photos: the photographer's own photos of one event, with each one's status (processing, tagged
 * with its BIBs, unlabeled, failed with the reason). BIBs are added, corrected or removed by hand;
 * photos not yet sold can be removed. The server shows a partner their own photos only. While
 * photos are processing, the counts say how long until they are findable when many photos wait
 * on the line (`findableWait`).
 */
export function ReviewPage(props: {
  eventPicker: (value: number | null, onChange: (eventId: number) => void) => ReactNode;
  findableWait: (wait: SupplyFindableWait | null) => ReactNode;
}) {
  useDocumentTitle('My Photos');
  const { message } = AntApp.useApp();
  const session = readLocalSession();
  const [eventId, setEventId] = useState<number | null>(null);
  const [data, setData] = useState<SupplyPhotosResult | null>(null);
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);

  // One page of one status at a time: the server filters and pages, so a large event stays quick.
  const load = useCallback(() => {
    if (eventId === null) return;
    supplyApi
      .photos({ eventId, page, perPage: SUPPLY_PHOTOS_PER_PAGE, status: filter })
      .then(({ result }) => setData(result))
      .catch((error: unknown) => message.error(isApiError(error) ? error.message : 'Something went wrong !'));
  }, [eventId, page, filter, message]);
  useEffect(load, [load]);
  useEffect(() => {
    if (!data || data.counts.processing === 0) return;
    const timer = setTimeout(load, REFRESH_WHILE_PROCESSING_MS);
    return () => clearTimeout(timer);
  }, [data, load]);

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/photos' }} />;

  const replace = (photo: SupplyPhoto) => setData((d) => d && { ...d, photos: d.photos.map((p) => (p.photoId === photo.photoId ? photo : p)) });
  const remove = async (photo: SupplyPhoto) => {
    try {
      const answer = await supplyApi.removePhoto({ photoId: photo.photoId });
      message.success(answer.message);
      load();
    } catch (error) {
      message.error(isApiError(error) ? error.message : 'Something went wrong !');
    }
  };
  const shown = data?.photos ?? [];

  return (
    // clip: antd's Row gutter reaches 2 px past a phone's edge and would scroll the page sideways.
    <div style={{ maxWidth: 1200, margin: '24px auto', padding: '0 16px', overflowX: 'clip' }}>
      <Typography.Title level={2}>My Photos</Typography.Title>
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        {props.eventPicker(eventId, (id) => {
          setEventId(id);
          setPage(1);
        })}
        {eventId !== null && !data && <Spin />}
        {data && (
          <>
            <Card>
              <Space size="large" wrap>
                <Statistic title="Uploaded" value={data.counts.uploaded} />
                <Statistic title="Processing" value={data.counts.processing} />
                <Statistic title="Searchable" value={data.counts.searchable} />
                <Statistic title="Needs attention" value={data.counts.needsAttention} />
              </Space>
              {props.findableWait(data.findable)}
            </Card>
            <Segmented<Filter>
              value={filter}
              onChange={(value) => {
                setFilter(value);
                setPage(1);
              }}
              options={[
                { value: 'all', label: 'All' },
                { value: 'tagged', label: 'Tagged' },
                { value: 'unlabeled', label: 'Unlabeled' },
                { value: 'processing', label: 'Processing' },
                { value: 'failed', label: 'Failed' },
              ]}
            />
            {shown.length === 0 ? (
              <Empty description="No photos here yet" />
            ) : (
              <Row gutter={[16, 16]}>
                {shown.map((photo) => (
                  <Col key={photo.photoId} xs={24} sm={12} md={8} lg={6}>
                    <Card
                      size="small"
                      data-testid="review-photo"
                      data-image-id={photo.imageId}
                      data-photo-id={photo.photoId}
                      cover={
                        photo.thumbUrl ? (
                          <Image src={photo.thumbUrl} alt={photo.imageId} preview={false} />
                        ) : (
                          <div style={{ height: 120, display: 'grid', placeItems: 'center', background: '#fafafa' }}>
                            {photo.status === 'failed' ? 'No preview' : <Spin />}
                          </div>
                        )
                      }
                    >
                      <Space direction="vertical" style={{ width: '100%' }}>
                        <Space wrap>
                          <Tag color={STATUS[photo.status].color} data-testid="review-status">
                            {STATUS[photo.status].text}
                          </Tag>
                          <Typography.Text type="secondary" title={photo.originalName ?? undefined}>
                            {photo.imageId}
                          </Typography.Text>
                        </Space>
                        {photo.status === 'failed' && <Typography.Text type="danger">{photo.failureReason}</Typography.Text>}
                        {(photo.status === 'tagged' || photo.status === 'unlabeled') && (
                          <BibEditor key={photo.bibs.map((b) => b.bibNumber).join(',')} photo={photo} onSaved={replace} />
                        )}
                        {photo.sold ? (
                          <Tooltip title="A sold photo cannot be removed.">
                            <Tag>Sold</Tag>
                          </Tooltip>
                        ) : (
                          photo.status !== 'processing' && (
                            <Popconfirm title="Remove this photo?" okText="Remove" onConfirm={() => remove(photo)}>
                              <Button danger size="small">
                                Remove
                              </Button>
                            </Popconfirm>
                          )
                        )}
                      </Space>
                    </Card>
                  </Col>
                ))}
              </Row>
            )}
            {data.total > data.perPage ? (
              <Pagination current={page} pageSize={data.perPage} total={data.total} showSizeChanger={false} onChange={setPage} data-testid="review-pages" />
            ) : null}
          </>
        )}
      </Space>
    </div>
  );
}
