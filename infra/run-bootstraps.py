"""Runs the built MuPDF functions (Prepare, Render, Recognize, Review) on a
one-page PDF, each with an empty environment but for its stores, through a
local Lambda Runtime API on 127.0.0.1 (issue 15, item 13): a static binary
that cannot start, or cannot draw or read a page, fails here.

Usage (infra/test.sh; the venv's Python has boto3, from aws-sam-cli):
  python run-bootstraps.py SAM_BUILD_DIR FINALIZE_BOOTSTRAP
with LECTERN_TEST_DYNAMODB_ENDPOINT, LECTERN_TEST_S3_ENDPOINT and its keys set.
"""
import http.server
import json
import os
import subprocess
import sys
import threading
import time
import uuid

import boto3

REQUEST_ID = "00000000-0000-0000-0000-000000000001"


def one_page_pdf(text):
    """A one-page PDF with a text layer, its xref offsets computed."""
    stream = f"BT /F1 24 Tf 72 700 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out


def invoke(bootstrap, event, env, timeout=120):
    """Starts bootstrap against a one-event Runtime API; returns (ok, body)."""
    result = {}
    done = threading.Event()

    class Runtime(http.server.BaseHTTPRequestHandler):
        served = False

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path != "/2018-06-01/runtime/invocation/next":
                self.send_error(404)
                return
            if Runtime.served:
                done.wait(timeout)  # the next invocation never comes
                return
            Runtime.served = True
            body = json.dumps(event).encode()
            self.send_response(200)
            self.send_header("Lambda-Runtime-Aws-Request-Id", REQUEST_ID)
            self.send_header("Lambda-Runtime-Deadline-Ms", str(int(time.time() * 1000) + timeout * 1000))
            self.send_header("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:test")
            self.send_header("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def read_body(self):
            if self.headers.get("Transfer-Encoding", "").lower() != "chunked":
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                chunk = self.rfile.read(size + 2)[:size]
                if size == 0:
                    return body
                body += chunk

        def do_POST(self):
            body = self.read_body()
            if self.path.endswith("/response"):
                result["ok"] = True
            elif self.path.endswith("/error"):
                result["ok"] = False
            else:
                self.send_error(404)
                return
            result["body"] = body.decode(errors="replace")
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            done.set()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Runtime)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = dict(env, AWS_LAMBDA_RUNTIME_API="127.0.0.1:%d" % server.server_address[1])
    proc = subprocess.Popen([bootstrap], env=env, cwd=os.path.dirname(bootstrap),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    exited = threading.Thread(target=lambda: (proc.wait(), done.set()), daemon=True)
    exited.start()
    done.wait(timeout)
    proc.kill()
    log = proc.stdout.read().decode(errors="replace")
    server.shutdown()
    if "ok" not in result:
        return False, "no response (exit %s): %s" % (proc.returncode, log[-2000:])
    return result["ok"], result["body"] if result["ok"] else result["body"] + "\n" + log[-2000:]


def main():
    build, finalize = sys.argv[1], sys.argv[2]
    s3_endpoint = os.environ["LECTERN_TEST_S3_ENDPOINT"]
    ddb_endpoint = os.environ["LECTERN_TEST_DYNAMODB_ENDPOINT"]
    keys = dict(aws_access_key_id=os.environ["LECTERN_TEST_S3_ACCESS_KEY"],
                aws_secret_access_key=os.environ["LECTERN_TEST_S3_SECRET_KEY"], region_name="us-east-1")
    run = uuid.uuid4().hex[:12]
    table, uploads, media = "bootstraps-" + run, "uploads-" + run, "media-" + run
    ddb = boto3.client("dynamodb", endpoint_url=ddb_endpoint, **keys)
    ddb.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": k, "AttributeType": "S"} for k in ("PK", "SK")],
                     KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}])
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, **keys)
    for b in (uploads, media):
        s3.create_bucket(Bucket=b)
    issue = "boot" + run
    s3.put_object(Bucket=uploads, Key="uploads/%s.pdf" % issue, Body=one_page_pdf("Static MuPDF reads this page"))

    # The stores and nothing else: no PATH, HOME or locale.
    env = {
        "AWS_ACCESS_KEY_ID": keys["aws_access_key_id"], "AWS_SECRET_ACCESS_KEY": keys["aws_secret_access_key"],
        "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL_DYNAMODB": ddb_endpoint, "AWS_ENDPOINT_URL_S3": s3_endpoint,
        "LECTERN_S3_PATH_STYLE": "1", "LECTERN_MODE": "aws", "LECTERN_TABLE": table,
        "LECTERN_UPLOADS_BUCKET": uploads, "LECTERN_MEDIA_BUCKET": media,
        "LECTERN_QUEUE_URL": "http://127.0.0.1:9/queue/unused",
    }
    page = {"issue_id": issue, "page": 1}
    review = {
        "version": "2.0", "routeKey": "POST /api/magazine/{doc}/pages/{page}/recognize",
        "rawPath": "/api/magazine/%s/pages/1/recognize" % issue, "rawQueryString": "",
        "headers": {"content-type": "application/json"},
        "requestContext": {"http": {"method": "POST", "path": "/api/magazine/%s/pages/1/recognize" % issue,
                                    "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1"},
                           "requestId": "r1", "routeKey": "POST /api/magazine/{doc}/pages/{page}/recognize", "stage": "$default"},
        "body": json.dumps({"engine": "tesseract"}), "isBase64Encoded": False,
    }
    runs = [
        ("PrepareFunction", {"source_key": "uploads/%s.pdf" % issue}, {}),
        ("RenderFunction", page, {}),
        ("RecognizeFunction", page, {"LECTERN_TESSERACT": os.path.join(build, "RecognizeFunction", "tesseract", "run")}),
        # Review edits only a finished issue. Finalize is arm64 in the
        # stack: the caller builds it for this machine.
        ("Finalize (this machine's build)", {"issue_id": issue}, {}),
        ("ReviewFunction", review, {"LECTERN_TESSERACT": os.path.join(build, "ReviewFunction", "tesseract", "run")}),
    ]
    def page_record():
        item = ddb.get_item(TableName=table, Key={"PK": {"S": "ISSUE#" + issue}, "SK": {"S": "PAGE#0001"}}).get("Item")
        return json.loads((item or {}).get("data", {}).get("B", b"{}"))

    # What each run must have written: Recognize the text layer's words,
    # Review (re-reading with the bundled Tesseract) the same words read
    # from MuPDF's render.
    expect = {
        "RecognizeFunction": ("text-layer", "Static MuPDF reads this page"),
        "ReviewFunction": ("tesseract", "reads this page"),
    }
    failed = 0
    for fn, event, extra in runs:
        started = time.time()
        bootstrap = finalize if fn.startswith("Finalize") else os.path.join(build, fn, "bootstrap")
        ok, body = invoke(bootstrap, event, dict(env, **extra))
        if ok and fn == "ReviewFunction":
            ok = json.loads(body).get("statusCode") == 200
        if ok and fn in expect:
            page = page_record()
            engine, words = expect[fn]
            text = " ".join(r.get("text", "") for r in page.get("regions", []))
            if page.get("engine") != engine or words.lower() not in text.lower():
                ok, body = False, "page record after it: %s" % json.dumps(page)[:600]
        print("%-32s %s in %.1f s: %s" % (fn, "ok" if ok else "FAILED", time.time() - started, body[:200]))
        failed += not ok

    renders = sorted(o["Key"] for o in s3.list_objects_v2(Bucket=media).get("Contents", []))
    if not any(k.endswith("0001.png") for k in renders):
        print("Render stored no PNG in the media bucket: %s" % renders)
        failed += 1
    print("media bucket: %s" % ", ".join(renders))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
