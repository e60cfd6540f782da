import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { AccountDataPeers } from './account-data-peers.js';
import { AccountExportController } from './account-export.controller.js';
import { AccountExportsRepository } from './account-exports.repository.js';
import { ExportAccount } from './export-account.js';

/** Contract §11 export: a person's copy of their data, gathered from accounts, sessions, and feedback and media over RPC. */
@Module({
  imports: [AccountsModule, SessionsModule],
  controllers: [AccountExportController],
  providers: [AccountExportsRepository, AccountDataPeers, ExportAccount],
})
export class AccountExportModule {}
