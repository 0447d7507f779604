import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Eta } from 'eta';
import { Language } from '../common/i18n/language';
import { appConfig, mailConfig } from '../config/configuration';
import { Transactions, Tx } from '../database/transaction';
import { VIEWS_ROOT, renderView } from '../web/views';
import { MAIL_MESSAGES, MailInputs, MailKind } from './mail-messages';
import { Mail, OutboxRepository } from './outbox.repository';

/**
 * The text bodies come from the same views folder with the same engine, but unescaped: a plain-text
 * mail is not HTML, and `&` in a link must stay `&`. The HTML bodies go through the pages' escaping engine.
 */
const textEngine = new Eta({ views: VIEWS_ROOT, autoEscape: false, autoTrim: false, cache: true });

/**
 * Writes mails (docs/mail.md): each kind in the reader's language, as plain text and HTML from
 * views/mail/, signed with PLATFORM_NAME, put in the outbox within the caller's transaction. Rendering
 * happens before the transaction (it reads templates); `enqueue` is one INSERT of that transaction.
 */
@Injectable()
export class Mailer {
  constructor(
    @Inject(mailConfig.KEY) private readonly config: ConfigType<typeof mailConfig>,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    private readonly outbox: OutboxRepository,
    private readonly transactions: Transactions,
  ) {}

  /** Whether the pages that send mail are on (off in production without SMTP_URL). */
  get enabled(): boolean {
    return this.config.enabled;
  }

  compose<K extends MailKind>(kind: K, language: Language, to: string, input: MailInputs[K]): Mail {
    const catalogue = MAIL_MESSAGES[language];
    const content = catalogue.kinds[kind](input, this.app.platformName);
    const data = { ...content, language, platformName: this.app.platformName, signature: catalogue.signature };
    return { to, subject: content.subject, text: textEngine.render('mail/text', data), html: renderView('mail/html', data) };
  }

  /** Puts the mail in the outbox as a statement of `tx`: sent only if the transaction commits. */
  enqueue(tx: Tx, mail: Mail, now: number): Promise<void> {
    return this.outbox.enqueue(tx, mail, now);
  }

  /** Puts the mail in the outbox on its own: a notice of a change that was committed just before. */
  async send(mail: Mail, now: number): Promise<void> {
    await this.transactions.run((tx) => this.outbox.enqueue(tx, mail, now));
  }

  /** An absolute link to a page of this service, for a mail (PUBLIC_URL, the address people use). */
  link(path: string, query: Record<string, string> = {}): string {
    const search = new URLSearchParams(query).toString();
    return `${this.app.publicUrl}${path}${search ? `?${search}` : ''}`;
  }
}
