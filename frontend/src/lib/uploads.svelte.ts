// Uploads outlive the Magazine view: their state lives here, so leaving the
// section and coming back shows the same progress, and the header can show
// an upload that runs while the user is elsewhere.
import { uploadIssue, type UploadMethod } from './magazine';

export type Upload = {
  key: number;
  name: string;
  /** Share of the file sent, 0..1. */
  sent: number;
  /** The issue the upload made, once the server took the file. */
  issue: string;
  /** Why the upload failed (an ApiError or Error), when it did. */
  error: unknown;
  /** Ingest of the issue ended (ready or failed). */
  finished: boolean;
};

export const uploads = $state<Upload[]>([]);

let next = 1;

/** Sends a PDF the way the server takes it; the returned key names it in uploads. */
export function startUpload(method: UploadMethod, file: File, title: string): number {
  const key = next++;
  uploads.unshift({ key, name: file.name, sent: 0, issue: '', error: null, finished: false });
  const find = () => uploads.find((u) => u.key === key);
  uploadIssue(method, file, file.name, title, (s) => {
    const u = find();
    if (u) u.sent = s;
  }).then(
    (issue) => {
      const u = find();
      if (u) (u.issue = issue.id), (u.sent = 1);
    },
    (e) => {
      const u = find();
      if (u) u.error = e;
    },
  );
  return key;
}

/** Marks an upload's ingest as ended (its live card then offers the issue). */
export function finished(key: number): void {
  const u = uploads.find((x) => x.key === key);
  if (u) u.finished = true;
}

/** Removes an upload's card. */
export function dismiss(key: number): void {
  const i = uploads.findIndex((u) => u.key === key);
  if (i >= 0) uploads.splice(i, 1);
}

/** The share sent of the uploads still sending, for the header (null: none). */
export function sending(list: Upload[]): number | null {
  const active = list.filter((u) => !u.issue && !u.error);
  if (!active.length) return null;
  return active.reduce((s, u) => s + u.sent, 0) / active.length;
}
