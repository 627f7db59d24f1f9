import { onBeforeUnmount, ref } from 'vue';

export type DownloadFormat = 'csv' | 'json';

/** A file offered as a Blob link. */
export interface Download {
  readonly url: string;
  readonly file: string;
  readonly format: DownloadFormat;
}

/**
 * A file the screen offers for download (the history's export, the structure's): one link at a
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
    const stamp = new Date().toISOString().slice(0, 10);
    download.value = { url: URL.createObjectURL(new Blob([text], { type })), file: `${name}-${stamp}.${format}`, format };
  }

  onBeforeUnmount(release);
  return { download, offer };
}
