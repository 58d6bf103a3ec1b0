import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { supplierMessages } from '@shk/contracts';
import { badRequest, HttpProblem } from '../../http/problem.ts';
import { spoolPart, type SpooledFile } from '../../lib/uploads/spooled-upload.ts';

/**
 * Writes the one file of a multipart upload (field name free, 'file' by the spec) to a scratch file in `dir`
 * (lib/uploads/spooled-upload.ts): the stream stops at the limit and never sits in memory whole; a second file is
 * refused (one file, §5).
 */
export async function spoolSingleFile(request: FastifyRequest, dir: string, maxBytes: number, maxMb: number) {
  if (!request.isMultipart()) throw badRequest(supplierMessages.fileFormat, 'multipart/form-data erwartet');
  let file: SpooledFile | null = null;
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 2 } })) {
    if (part.type !== 'file') continue;
    if (file) {
      await spoolPart(part as MultipartFile, dir).catch(() => null);
      throw new HttpProblem(400, supplierMessages.maxFileCount, { type: 'maxFileCount' });
    }
    const spooled = await spoolPart(part as MultipartFile, dir).catch((error: { code?: string }) => {
      if (error.code === 'FST_REQ_FILE_TOO_LARGE')
        throw new HttpProblem(400, supplierMessages.maxFileSize(maxMb), { type: 'maxFileSize' });
      throw error;
    });
    file = { ...spooled, name: spooled.name || 'datei' };
  }
  if (!file) throw badRequest(supplierMessages.fileFormat, 'Keine Datei übermittelt');
  return file;
}
