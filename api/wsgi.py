"""The WSGI entry point for gunicorn: `gunicorn api.wsgi:app` (REDIS_URL must be set).

Every ruleset and its data pack is loaded here, before the first request, so that no request
waits for a pack to be read, and the heap is settled (`load_all_and_settle`)."""

from api.app import create_app
from api.http_errors import answer_parser_errors_in_json
from service.rulesets import load_all_and_settle

answer_parser_errors_in_json()
app = create_app()
load_all_and_settle()
