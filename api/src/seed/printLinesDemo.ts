import type { AppContext } from '../context';
import { materialisePrintLines } from '../features/fulfilment';

export const PRINT_LINES_DEMO_SETTING = 'print_lines_demo_seed';
/** The demo's newest paid print lines stay in the queue, so Print Orders has work to show. */
export const DEMO_QUEUED_LINES = 3;

/**
 * The demo's orders are weeks old: their prints were made, shipped and delivered long ago. Their
 * print lines are written as such (printed a day after payment, shipped the next day, delivered three
 * days later, never later than now), except the newest few, which wait in the queue. Without this,
 * hundreds of weeks-old lines waited for print-ready files ahead of every new order (the print-files
 * job makes a few per minute, oldest first). Runs once per database (its own app_settings row).
 */
export async function settleDemoPrintLines(ctx: AppContext, log: (message: string) => void = () => undefined): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (tx.kind === 'postgres') await tx.query('select pg_advisory_xact_lock(872352)');
    if ((await tx.query('select 1 from app_settings where key = $1', [PRINT_LINES_DEMO_SETTING])).length > 0) return;
    await materialisePrintLines(tx);
    const settled = await tx.query<{ id: number }>(
      `with kept as (select id from print_lines where status = 'queued' order by created_at desc, id desc limit $1)
       update print_lines l
          set status = 'delivered',
              printed_at = least(now(), l.created_at + interval '1 day'),
              shipped_at = least(now(), l.created_at + interval '2 days'),
              delivered_at = least(now(), l.created_at + interval '5 days'),
              status_changed_at = least(now(), l.created_at + interval '5 days'),
              courier = 'Blue Dart',
              tracking_number = 'BD' || lpad(l.id::text, 9, '0') || 'IN'
        where l.status = 'queued' and l.file_state = 'pending' and l.id not in (select id from kept)
        returning l.id`,
      [DEMO_QUEUED_LINES],
    );
    await tx.query('insert into app_settings (key, value) values ($1, $2)', [
      PRINT_LINES_DEMO_SETTING,
      JSON.stringify({ version: 1, delivered: settled.length }),
    ]);
    log(`print lines demo: ${settled.length} weeks-old print lines delivered, the newest ${DEMO_QUEUED_LINES} left in the queue`);
  });
}
