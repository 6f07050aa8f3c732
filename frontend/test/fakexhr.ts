// A stand-in XMLHttpRequest for the upload tests: it records what is sent,
// reports a quarter then all of the body sent, and answers FakeXHR.answer.
export class FakeXHR {
  static answer = { status: 200, body: '{"id":"abcdefgh12","title":"t","status":"processing"}' };
  static sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = [];
  /** Forgets what was sent and answers the default again. */
  static reset() {
    FakeXHR.sent = [];
    FakeXHR.answer = { status: 200, body: '{"id":"abcdefgh12","title":"t","status":"processing"}' };
  }
  status = 0;
  responseText = '';
  upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void; onload?: () => void } = {};
  onload?: () => void;
  onerror?: () => void;
  private req = { method: '', url: '', headers: {} as Record<string, string>, body: undefined as unknown };
  open(method: string, url: string) {
    this.req.method = method;
    this.req.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.req.headers[k] = v;
  }
  send(body: unknown) {
    this.req.body = body;
    FakeXHR.sent.push(this.req);
    this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
    this.upload.onload?.();
    this.status = FakeXHR.answer.status;
    this.responseText = FakeXHR.answer.body;
    this.onload?.();
  }
}
