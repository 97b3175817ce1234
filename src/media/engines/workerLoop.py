"""The loop of a speech worker process (piperWorker.py, kokoroWorker.py): one JSON request a line on stdin, one
JSON answer a line on stdout, in order, until stdin closes or the worker passes its memory bound."""
import json
import resource
import sys


def serve(handle, max_rss_mb: int) -> None:
    """Answers each request with handle(request); a failure is answered, and the worker stays up for the next."""
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = handle(request)
        except Exception as error:  # the caller gets the reason
            answer = {"error": "failed", "message": f"{type(error).__name__}: {error}"}
        # ru_maxrss is in KiB on Linux; past the bound the worker says so, leaves, and the pool starts a fresh one.
        leaving = max_rss_mb and resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > max_rss_mb * 1024
        if leaving:
            answer["leaving"] = True
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        if leaving:
            return
