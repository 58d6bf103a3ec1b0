import { currentAccessToken } from './client';
import { ApiError, isProblem } from './problem';

/** File name of a content-disposition header (RFC 6266: filename* wins over filename). */
function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain ? plain[1].trim() : fallback;
}

/**
 * Downloads an API file with the bearer token and saves it under the name of the content-disposition
 * header (spec: file downloads read the file name from content-disposition).
 */
export async function downloadApiFile(path: string, fallbackName: string): Promise<void> {
  const token = await currentAccessToken();
  const response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw new ApiError(response.status, isProblem(body) ? body : null);
  }
  const blob = await response.blob();
  const name = fileNameFromDisposition(response.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
