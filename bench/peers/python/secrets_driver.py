"""detect-secrets beside Baton's redaction: scans texts given on stdin the way its CLI scans files.

stdin: {"fixtures": [text, ...], "transcripts": [{"id", "text"}]}
stdout: {"version", "fixtures": [{"flagged": bool, "types": [..]}], "transcripts": [{"id", "findings", "types"}],
         "fixtureCpuMs", "transcriptCpuMs"}
Each text is written to its own temporary .txt file and scanned with default settings (all plugins and
default filters). Secret values are never written to stdout: only types and counts.
"""

import importlib.metadata
import json
import os
import sys
import tempfile
import time

from detect_secrets.core.scan import scan_file
from detect_secrets.settings import default_settings


def scan_texts(texts, folder):
    results = []
    cpu = 0.0
    for index, text in enumerate(texts):
        path = os.path.join(folder, f"t{index}.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        start = time.process_time()
        found = list(scan_file(path))
        cpu += time.process_time() - start
        results.append(found)
        os.unlink(path)
    return results, cpu * 1000


def main():
    request = json.load(sys.stdin)
    with default_settings(), tempfile.TemporaryDirectory() as folder:
        fixtures, fixture_cpu = scan_texts(request["fixtures"], folder)
        transcripts, transcript_cpu = scan_texts([t["text"] for t in request["transcripts"]], folder)
    json.dump(
        {
            "version": importlib.metadata.version("detect-secrets"),
            "fixtures": [{"flagged": bool(found), "types": sorted({s.type for s in found})} for found in fixtures],
            "transcripts": [
                {"id": item["id"], "findings": len(found), "types": sorted({s.type for s in found})}
                for item, found in zip(request["transcripts"], transcripts)
            ],
            "fixtureCpuMs": fixture_cpu,
            "transcriptCpuMs": transcript_cpu,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
