import { Injectable } from '@nestjs/common';
import { FEEDBACK_SENT_BY_ACCOUNT, FILES_OF_ACCOUNT, type ExportedFeedbackDto, type ExportedFileDto } from '@school/contracts';
import { RpcClient } from '@school/messaging';

/** What the other services keep of a person, for their copy (contract §11). */
export interface PeerData {
  feedback: ExportedFeedbackDto[];
  files: ExportedFileDto[];
}

/**
 * Asks feedback and media at once (FEEDBACK_SENT_BY_ACCOUNT, FILES_OF_ACCOUNT; decision 0008).
 * Either gives no answer in time: RpcUnavailableError, answered 503 SERVICE_UNAVAILABLE with
 * Retry-After, never a copy that leaves their part out.
 */
@Injectable()
export class AccountDataPeers {
  constructor(private readonly rpc: RpcClient) {}

  async of(publicId: string): Promise<PeerData> {
    const [feedback, files] = await Promise.all([this.rpc.call(FEEDBACK_SENT_BY_ACCOUNT, { userId: publicId }), this.rpc.call(FILES_OF_ACCOUNT, { ownerId: publicId })]);
    return { feedback: feedback.submissions, files: files.files };
  }
}
