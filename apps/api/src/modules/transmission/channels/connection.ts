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

/** Temporary name in the same folder: renamed atomically once complete, never picked up by a supplier's *.edi/*.pdf import. */
export const temporaryName = (name: string, key: string) => `.${name}.${key}.part`;
