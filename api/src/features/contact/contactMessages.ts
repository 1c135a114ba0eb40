import type { ContactInput } from '@finishline/shared/pure';
import type { AppContext } from '../../context';
import type { Db } from '../../db/db';

export async function saveContactMessage(db: Db, input: ContactInput, userId: number | null, ip: string): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `insert into contact_messages (first_name, last_name, email, isd_code, phone_no, message, bib_id, user_id, client_ip)
     values ($1, $2, lower($3), $4, $5, $6, $7, $8, $9) returning id`,
    [input.firstName, input.lastName, input.email, input.isdCode, input.phoneNo, input.message, input.bibId || null, userId, ip],
  );
  return rows[0].id;
}

/** Support gets the message; the sender gets a short acknowledgement with the reference. */
export async function sendContactMails(ctx: AppContext, id: number, input: ContactInput): Promise<void> {
  const reference = `FL-C${String(id).padStart(5, '0')}`;
  await ctx.mailer.send({
    to: ctx.config.mail.supportAddress,
    tag: 'contact',
    subject: `Contact form ${reference}: ${input.firstName} ${input.lastName}`,
    text: [
      `From: ${input.firstName} ${input.lastName} <${input.email}>`,
      `Phone: ${input.isdCode} ${input.phoneNo}`,
      input.bibId ? `BIB: ${input.bibId}` : null,
      '',
      input.message,
    ]
      .filter((line) => line !== null)
      .join('\n'),
  });
  await ctx.mailer.send({
    to: input.email,
    tag: 'contact_ack',
    subject: `We received your message (${reference})`,
    text: [
      `Hi ${input.firstName},`,
      '',
      `Thank you for writing to Finishline. Your reference is ${reference}; our support team replies within 48 hours.`,
      '',
      'Team Finishline',
    ].join('\n'),
  });
}
