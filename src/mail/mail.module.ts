import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailSender } from './mail-sender.service';
import { Mailer } from './mailer.service';
import { OutboxMail } from './outbox-mail.entity';
import { OutboxRepository } from './outbox.repository';

/** Mail over SMTP through an outbox (docs/mail.md): Mailer writes, MailSender delivers. */
@Module({
  imports: [TypeOrmModule.forFeature([OutboxMail])],
  providers: [OutboxRepository, Mailer, MailSender],
  exports: [Mailer, OutboxRepository, MailSender],
})
export class MailModule {}
