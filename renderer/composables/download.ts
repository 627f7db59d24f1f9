import { onBeforeUnmount, ref } from 'vue';

export type DownloadFormat = 'csv' | 'json';

/** A file offered as a link: a Blob made on the page, or an address the station streams the file from. */
export interface Download {
  readonly url: string;
  readonly file: string;
  readonly format: DownloadFormat;
}

/** A downloaded file's name: `<name>-<date>.<format>`. */
function downloadName(name: string, format: DownloadFormat): string {
  return `${name}-${new Date().toISOString().slice(0, 10)}.${format}`;
}

/**
 * A file the station streams to the browser from its own address (browser mode's history export,
 * GET /export/history.csv or .json: station/web/exportRoute.ts), never held by the page: a plain link,
 * which the browser's own download takes, named as the Blob links are.
 */
export function streamedDownload(name: string, path: string, format: DownloadFormat): Download {
  return { url: path, file: downloadName(name, format), format };
}

/**
 * A file the screen offers for download (the structure's): one link at a
 * time, named `<name>-<date>.<format>`; the last link's Blob URL is revoked when the next one is
 * made and when the screen goes.
 */
export function useDownload(name: string) {
  const download = ref<Download | null>(null);

  function release(): void {
    if (download.value !== null) URL.revokeObjectURL(download.value.url);
    download.value = null;
  }

  function offer(text: string, format: DownloadFormat): void {
    release();
    const type = format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json';
    download.value = { url: URL.createObjectURL(new Blob([text], { type })), file: downloadName(name, format), format };
  }

  onBeforeUnmount(release);
  return { download, offer };
}
