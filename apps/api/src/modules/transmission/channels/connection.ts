import { PermanentTransmissionError, type TransmissionTarget, type WorkflowConnection } from '../transmission.types.ts';

export function requireWorkflow(target: TransmissionTarget, what: string): WorkflowConnection {
  if (!target.workflow)
    throw new PermanentTransmissionError(`Kein Workflow (Verbindungsprofil) für ${what} hinterlegt`);
  return target.workflow;
}

export function requireHost(workflow: WorkflowConnection): string {
  if (!workflow.host) throw new PermanentTransmissionError(`Workflow „${workflow.name}“ hat keinen Host`);
  return workflow.host;
}

/** The supplier's folder as an absolute remote path without a trailing slash ('' = the login directory). */
export function remoteFolder(target: TransmissionTarget): string {
  const folder = (target.folder ?? '').trim().replace(/\/+$/, '');
  return folder;
}

export const joinRemote = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/**
 * Temporary name in the same folder, unique per attempt (its message id): renamed once complete and checked,
 * never picked up by a supplier's *.edi/*.pdf import, never shared with another attempt still writing.
 */
export const temporaryName = (name: string, messageId: string) => `.${name}.${messageId}.part`;

/**
 * The name used when the order's file name is taken on the server: the document's name (which carries the
 * order number, `ORDERS_<no>.edi`) plus the attempt's message id before the extension.
 */
export function uniqueName(name: string, messageId: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}_${messageId}${name.slice(dot)}` : `${name}_${messageId}`;
}
