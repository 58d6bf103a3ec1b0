import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { supplierMessages } from '@shk/contracts';
import { badRequest, HttpProblem } from '../../http/problem.ts';

/**
 * Reads the one file of a multipart upload (field name free, 'file' by the spec). The stream stops at
 * the limit, so an oversized file never sits in memory whole; a second file is refused (one file, §5).
 */
export async function readSingleFile(request: FastifyRequest, maxBytes: number, maxMb: number) {
  if (!request.isMultipart()) throw badRequest(supplierMessages.fileFormat, 'multipart/form-data erwartet');
  let file: { fileName: string; content: Buffer } | null = null;
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 2 } })) {
    if (part.type !== 'file') continue;
    if (file) {
      await (part as MultipartFile).toBuffer().catch(() => null);
      throw new HttpProblem(400, supplierMessages.maxFileCount, { type: 'maxFileCount' });
    }
    const content = await (part as MultipartFile).toBuffer().catch((error: { code?: string }) => {
      if (error.code === 'FST_REQ_FILE_TOO_LARGE')
        throw new HttpProblem(400, supplierMessages.maxFileSize(maxMb), { type: 'maxFileSize' });
      throw error;
    });
    file = { fileName: (part as MultipartFile).filename || 'datei', content };
  }
  if (!file) throw badRequest(supplierMessages.fileFormat, 'Keine Datei übermittelt');
  return file;
}
