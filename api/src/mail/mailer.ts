import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What kind of mail this is (password_code, privacy_otp, order_confirmation, contact...), for the outbox page and tests. */
  tag: string;
}

export interface StoredMail extends MailMessage {
  id: string;
  from: string;
  sentAt: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** The outbox folder (null with SMTP): the development page and the tests read it. */
  readonly outboxDir: string | null;
}

export interface MailConfig {
  from: string;
  smtpUrl: string | null;
  outboxDir: string;
}

/** Writes every mail as one JSON file in the outbox folder; file names sort by time. */
class OutboxMailer implements Mailer {
  constructor(
    readonly outboxDir: string,
    private readonly from: string,
  ) {
    fs.mkdirSync(outboxDir, { recursive: true });
  }

  async send(message: MailMessage): Promise<void> {
    const sentAt = new Date().toISOString();
    const id = `${sentAt.replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}`;
    const stored: StoredMail = { ...message, id, from: this.from, sentAt };
    const file = path.join(this.outboxDir, `${id}.json`);
    await fs.promises.writeFile(`${file}.tmp`, JSON.stringify(stored, null, 2));
    await fs.promises.rename(`${file}.tmp`, file);
  }
}

class SmtpMailer implements Mailer {
  readonly outboxDir = null;
  private readonly transport: Transporter;
  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Bounded waits: a mail server that accepts and then hangs must not hold a buyer's payment return
    // (the first send runs in that request) or a queue worker for nodemailer's default ten minutes.
    // Timeouts given in the URL's query still win.
    this.transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
  }
}

export function createMailer(config: MailConfig): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.from) : new OutboxMailer(config.outboxDir, config.from);
}

/** Reads the outbox, newest last. */
export async function readOutbox(outboxDir: string): Promise<StoredMail[]> {
  let files: string[];
  try {
    files = (await fs.promises.readdir(outboxDir)).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return Promise.all(files.map(async (f) => JSON.parse(await fs.promises.readFile(path.join(outboxDir, f), 'utf8')) as StoredMail));
}
