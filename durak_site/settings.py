"""Settings for every mode of the Durak club, chosen by the environment.

Three modes, one module (README.md has the table of variables):

* **embedded** (nothing set): SQLite in WAL mode with immediate transactions, an in-process channel
  layer, and Celery on the ``memory://`` broker whose worker runs as a thread of the serving process
  (started by ``manage.py serve`` / ``runserver``, see ``durak_site.embedded_worker``).
* **services** (``DATABASE_URL`` and/or ``REDIS_URL``): PostgreSQL, ``channels_redis``'s pub/sub
  channel layer (``durak_site.channel_layers``), a Redis cache and Celery over Redis with separate
  ``celery worker`` and ``celery beat`` processes.
* **production** (``DJANGO_ENV=production``): adds the secret key from the environment, secure
  cookies, HSTS, whitenoise's manifest storage and JSON logs; passes ``check --deploy`` cleanly.
"""

import os
import tempfile
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from kombu import Queue
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from .env import channel_layer_prefix, env_bool, env_int, env_list, env_pair, env_str, redis_url_for_tests

BASE_DIR = Path(__file__).resolve().parent.parent

# Django's generic classes subscriptable at run time, as django-stubs types them (``ModelAdmin[User]``).
django_stubs_ext.monkeypatch()

DJANGO_ENV = env_str("DJANGO_ENV", "development").strip().lower()
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(f"DJANGO_ENV must be 'development' or 'production', not {DJANGO_ENV!r}")
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env_bool("DJANGO_DEBUG", default=not PRODUCTION)

SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_ENV=production")
    SECRET_KEY = "django-insecure-local-development-key-never-use-in-production"

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "[::1]", "testserver"]
)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_ENV=production")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
#: How many proxies of ours stand in front of daphne, each appending its peer to X-Forwarded-For:
#: the client's address is the entry the outermost one wrote (``durak_site.proxy``). 0 (the
#: default) ignores the header and takes the socket's peer. Rate limits count by this address.
TRUSTED_PROXIES = env_int("DJANGO_TRUSTED_PROXIES", 0)
if TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured("DJANGO_TRUSTED_PROXIES must be 0 or more")

INSTALLED_APPS = [
    # durak_site first: its runserver (daphne + embedded Celery worker) wins over daphne's.
    "durak_site",
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "allauth",
    "allauth.account",
    "accounts",
    "people",
    "games",
    "ratings",
    "play",
    "tournaments",
    "pairing",
    "history",
    "botapi",
    "learn",
    "analysis",
    "puzzles",
    "club",
    "tools",
    "ops",
]

MIDDLEWARE = [
    # First: every request's id for its log lines, and every response counted by status.
    "ops.middleware.RequestMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "durak_site.middleware.TimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, so its process_exception sees a view's exception first: a full pool is a 503.
    "durak_site.busy.PoolBusyMiddleware",
]

ROOT_URLCONF = "durak_site.urls"
ASGI_APPLICATION = "durak_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context_processors.tournament_notice",
            ],
        },
    },
    {
        # The match page's fragments, drawn for every socket on every move (play.jinja).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "play.jinja.environment"},
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
#: Connections of each process's pool on PostgreSQL (0: no pool). The pool is what bounds the
#: stack's connections (processes x this) whatever the load: without it every thread that served
#: a request kept a connection of its own for CONN_MAX_AGE, and one daphne held 58 after 100
#: parallel GETs (docs/production.md). Connections go back to the pool after each request, task
#: and socket call, still open, so reuse costs no new connection.
DATABASE_POOL_MAX_SIZE = env_int("DATABASE_POOL_MAX_SIZE", 10 if PRODUCTION else 0)
#: Without a pool: seconds a thread keeps its connection (0: one connection per request).
DATABASE_CONN_MAX_AGE = env_int("DATABASE_CONN_MAX_AGE", 0)
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=DATABASE_CONN_MAX_AGE, conn_health_checks=True
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        if DATABASE_POOL_MAX_SIZE:
            if DATABASE_CONN_MAX_AGE:
                raise ImproperlyConfigured(
                    "DATABASE_CONN_MAX_AGE keeps a connection per thread: it works only without the"
                    " pool (DATABASE_POOL_MAX_SIZE=0); with the pool, leave it unset."
                )
            # Django's own pool (psycopg_pool). A request that finds every connection taken waits
            # DATABASE_POOL_TIMEOUT seconds, then gets a 503 (durak_site.busy), not a 500.
            DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
                "min_size": min(env_int("DATABASE_POOL_MIN_SIZE", 2), DATABASE_POOL_MAX_SIZE),
                "max_size": DATABASE_POOL_MAX_SIZE,
                "timeout": float(env_int("DATABASE_POOL_TIMEOUT", 10)),
            }
        # Django's backend, whose health check asks the server only when the socket says to.
        DATABASES["default"]["ENGINE"] = "durak_site.postgresql"
        # The statements sent through durak_site.db.prepared_cursor (every move's few) are prepared
        # on their first use on a connection; Django's own cursors bind on the client and never are.
        # (A transaction-pooling PgBouncer without prepared-statement support would need None here.)
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 0
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                # Writers take the lock at BEGIN, so concurrent writers queue on the busy timeout
                # instead of failing with "database is locked" on lock upgrade.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file, not Django's shared-cache in-memory default: shared cache locks whole tables
            # ("database table is locked", no busy wait) once a Celery worker thread writes too.
            "TEST": {"NAME": str(Path(tempfile.gettempdir()) / f"durak-test-{os.getpid()}.sqlite3")},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery broker ----------------------------------------------
REDIS_URL = redis_url_for_tests(env_str("REDIS_URL"))
if REDIS_URL:
    CHANNEL_LAYERS: dict[str, Any] = {
        "default": {
            # Pub/sub: at most once, about 3x cheaper per broadcast than channels_redis's list-based
            # layer; why that is enough, and what happens when Redis goes away: channel_layers.py.
            "BACKEND": "durak_site.channel_layers.ResyncingPubSubChannelLayer",
            "CONFIG": {
                # One immediate retry: the first command on a connection that Redis dropped (a
                # restart) fails, and a broadcast lost that way would leave every view stale.
                # A ping on every connection idle for 5 s: the layer drops a subscription that
                # stops answering (a half-open connection) and reconnects, as after a restart.
                # A 2 s socket timeout (redis-py's is 5 s): a publish on a half-open connection
                # waits that long before its retry on a new one, and a move's broadcast with it.
                # Idle sockets are safe with it: the layer polls its subscription every 0.1 s
                # and never blocks in a read (tests/site).
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "retry": Retry(NoBackoff(), 1),
                        "health_check_interval": 5,
                        "socket_timeout": 2,
                    }
                ],
                # Pub/sub ignores database numbers (see env.channel_layer_prefix).
                "prefix": channel_layer_prefix(REDIS_URL),
            },
        }
    }
    # One client per process, not one per socket: durak_site/cache.py.
    CACHES = {"default": {"BACKEND": "durak_site.cache.SharedRedisCache", "LOCATION": REDIS_URL}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "durak_site.channel_layers.ThreadSafeInMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL or "memory://localhost/")
#: True when the worker must run inside the serving process (see durak_site.embedded_worker).
CELERY_EMBEDDED_WORKER = CELERY_BROKER_URL.startswith("memory://")
if CELERY_EMBEDDED_WORKER:
    # The memory transport polls once a second by default: every task would wait up to 1 s.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {"polling_interval": 0.02}
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": 3600,
        # A half-open connection (the broker gone without a reset) must not hang a worker or a
        # sending process for ever: commands and connects time out (kombu's defaults wait for
        # ever), and kombu drops a waiting connection whose reply is 10 s overdue, so a worker
        # consumes again within about half a minute (tests/faults/test_silent_redis.py).
        "socket_timeout": 10,
        "socket_connect_timeout": 5,
        "health_check_interval": 10,
    }
# Bot turns have a queue of their own, so a slow search never holds up a turn deadline or a
# tournament tick behind it: production runs a worker per queue (Procfile). A worker started
# without -Q, like the embedded one, takes both.
# Game reviews (history.review) search for seconds per game: a queue of their own too, with its
# own worker, so no review ever waits in front of a bot turn or a deadline.
CELERY_TASK_QUEUES = (Queue("celery"), Queue("bots"), Queue("reviews"))
CELERY_TASK_ROUTES = {
    "games.bot_turn": {"queue": "bots"},
    "history.review_step": {"queue": "reviews"},
    "analysis.evaluation_step": {"queue": "reviews"},
    # The puzzle miner searches for seconds per match, like a review.
    "puzzles.mine": {"queue": "reviews"},
}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Retry a lost broker forever (the default gives up after 100 attempts, about 45 minutes, and the
# worker exits): the site must recover by itself whenever Redis comes back.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A worker's database connections live as a request's do (the pool or CONN_MAX_AGE), by
# durak_site.celery's handlers around every task; Celery's Django fixup closes them before and
# after every task unless given this, and then only every this many tasks.
CELERY_DB_REUSE_MAX = 1000

# --- Live play ------------------------------------------------------------------------------
#: Seconds a bot (or an autopilot) waits before its move, drawn between the two: a human-like pause.
GAMES_BOT_DELAY = env_pair("GAMES_BOT_DELAY", (0.6, 1.2))
#: Frames a match socket may send: refill rate per second and burst (``play.ratelimit``).
_socket_rate, _socket_burst = env_pair("GAMES_SOCKET_RATE", (5.0, 10))
GAMES_SOCKET_RATE = (_socket_rate, int(_socket_burst))
#: Frames one user may send over all their sockets and processes: how many per window of seconds.
_user_frames, _user_window = env_pair("GAMES_USER_RATE", (240, 60))
GAMES_USER_RATE = (int(_user_frames), int(_user_window))
#: Lines of table chat one user may say over all their sockets: how many per window of seconds.
_chat_lines, _chat_window = env_pair("CHAT_USER_RATE", (6, 20))
CHAT_USER_RATE = (int(_chat_lines), int(_chat_window))
#: Websocket handshakes per client address, and per account, before any database work
#: (``durak_site.socket_limits``): refill per second and burst; sockets open at once per address
#: and per account; heartbeats a personal socket may send (per second, burst). docs/production.md.
WEBSOCKET_HANDSHAKE_RATE = env_pair("WEBSOCKET_HANDSHAKE_RATE", (2.0, 30))
WEBSOCKET_OPEN_PER_ADDRESS = env_int("WEBSOCKET_OPEN_PER_ADDRESS", 60)
WEBSOCKET_OPEN_PER_ACCOUNT = env_int("WEBSOCKET_OPEN_PER_ACCOUNT", 20)
WEBSOCKET_HEARTBEAT_RATE = env_pair("WEBSOCKET_HEARTBEAT_RATE", (0.2, 3))
#: New game reviews one user may ask for: how many per window of seconds (asking again for a
#: stored review is free).
_reviews, _review_window = env_pair("HISTORY_REVIEW_RATE", (6, 3600))
HISTORY_REVIEW_RATE = (int(_reviews), int(_review_window))
#: Puzzle moves one account may send per window of seconds; an address four times as many.
_puzzle_moves, _puzzle_window = env_pair("PUZZLES_MOVE_RATE", (30, 60))
PUZZLES_MOVE_RATE = (int(_puzzle_moves), int(_puzzle_window))
#: Answers to the lessons' steps one account may send per window of seconds (``learn.limits``; a
#: client address may send four times as many).
_learn_answers, _learn_window = env_pair("LEARN_ANSWER_RATE", (30, 60))
LEARN_ANSWER_RATE = (int(_learn_answers), int(_learn_window))
#: Evaluations on the analysis board one account may ask for per window of seconds (one at a
#: time besides; ``analysis.services``), and board pages a client may open per window
#: (``analysis.limits``).
_evaluations, _evaluation_window = env_pair("ANALYSIS_EVALUATION_RATE", (10, 3600))
ANALYSIS_EVALUATION_RATE = (int(_evaluations), int(_evaluation_window))
_boards, _board_window = env_pair("ANALYSIS_BOARD_RATE", (120, 60))
ANALYSIS_BOARD_RATE = (int(_boards), int(_board_window))
#: The review's search iterations per decision (``games.bots.assess.REVIEW_ITERATIONS``; tests
#: lower it).
HISTORY_REVIEW_ITERATIONS = env_int("HISTORY_REVIEW_ITERATIONS", 1200)
#: Deal fishing (``play.services.playban``): this many rated games left too early (aborted,
#: resigned or timed out into the autopilot before every player made ``GAMES_RATED_MIN_MOVES``
#: moves of their own) within the window of hours bar rated play for the base minutes, doubled for
#: each one past the limit (at most a day). Such a game is not rated either (``games.early``).
GAMES_RATED_QUITS = env_int("GAMES_RATED_QUITS", 3)
GAMES_RATED_QUIT_WINDOW_HOURS = env_int("GAMES_RATED_QUIT_WINDOW_HOURS", 24)
GAMES_RATED_BAN_MINUTES = env_int("GAMES_RATED_BAN_MINUTES", 30)
GAMES_RATED_MIN_MOVES = env_int("GAMES_RATED_MIN_MOVES", 3)
#: Repeated pairs (``ratings.farming``): once two accounts have had this many rated games together
#: within the window of hours, their further games in it are played as rated but move no rating.
RATINGS_PAIR_GAMES = env_int("RATINGS_PAIR_GAMES", 5)
RATINGS_PAIR_WINDOW_HOURS = env_int("RATINGS_PAIR_WINDOW_HOURS", 24)
#: Tables one user may have open (waiting or playing) at once, and tables they may open per window
#: of seconds (``play.services.limits``).
GAMES_OPEN_TABLES_PER_USER = env_int("GAMES_OPEN_TABLES_PER_USER", 3)
_tables_made, _tables_window = env_pair("GAMES_TABLE_CREATE_RATE", (10, 600))
GAMES_TABLE_CREATE_RATE = (int(_tables_made), int(_tables_window))
#: Minutes after which a table nobody joined is closed (``games.close_unjoined_tables``, beat), and
#: seconds after the host's last sign of life that the lobby shows "host away".
GAMES_UNJOINED_TABLE_MINUTES = env_int("GAMES_UNJOINED_TABLE_MINUTES", 30)
GAMES_HOST_AWAY_SECONDS = env_int("GAMES_HOST_AWAY_SECONDS", 90)
#: Seconds a full table waits at most for the values of its players' open pages before it deals
#: (``play.services.tables``, ``docs/rules.md`` §"Fair deals" step 3, which says 5).
GAMES_DEAL_WAIT_SECONDS = env_int("GAMES_DEAL_WAIT_SECONDS", 5)

# --- Tournaments ----------------------------------------------------------------------------
#: Tournaments one user may have not yet over (drafts included) at once, and may set up per window
#: of seconds (``tournaments.services.tournament_create``).
TOURNAMENTS_OPEN_PER_USER = env_int("TOURNAMENTS_OPEN_PER_USER", 3)
_tournaments_made, _tournaments_window = env_pair("TOURNAMENTS_CREATE_RATE", (5, 86400))
TOURNAMENTS_CREATE_RATE = (int(_tournaments_made), int(_tournaments_window))

# --- Bot API --------------------------------------------------------------------------------
#: Open streams: game streams per token (a token has one event stream) and streams of any token
#: per client address, counted before any database work (``botapi.limits``).
BOTAPI_GAME_STREAMS_PER_TOKEN = env_int("BOTAPI_GAME_STREAMS_PER_TOKEN", 16)
BOTAPI_STREAMS_PER_ADDRESS = env_int("BOTAPI_STREAMS_PER_ADDRESS", 32)

# --- Accounts -------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "accounts:me"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.DisplayNameSignupForm"
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "optional")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
#: Sign-in by a code emailed to the account's address: allauth's lockout after failed passwords
#: ("login_failed" below: 5 in 5 minutes) is counted per email, so anyone could lock a player
#: out; the code flow does not count those failures, and only the mailbox's owner reads
#: the code. A code lasts 3 minutes and allows 3 guesses; requests are limited per email and IP
#: (``request_login_code`` below).
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
ACCOUNT_LOGIN_BY_CODE_TIMEOUT = 180
ACCOUNT_LOGIN_BY_CODE_MAX_ATTEMPTS = 3
ACCOUNT_FORMS = {"request_login_code": "accounts.login_code.LimitedRequestLoginCodeForm"}
ACCOUNT_USER_DISPLAY = "accounts.adapter.user_display"
# allauth counts its per-address limits by REMOTE_ADDR: the ASGI scope's client, which
# ``durak_site.proxy`` already took from the trusted proxies' entries. allauth must not read
# X-Forwarded-For again (its count raises ImproperlyConfigured on a shorter header).
ALLAUTH_TRUSTED_PROXY_COUNT = 0
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = None
#: allauth's limits, stated here so they are visible; counted in the cache (Redis when set).
ACCOUNT_RATE_LIMITS = {
    "signup": "10/m/ip,50/h/ip",
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/5m/key",
    # Sign-in codes (see docs/accounts.md): one address asks at most 2 in 5 minutes and 10 an hour,
    # fewer than the 5 in 5 minutes one email may get, so one stranger cannot use up the owner's
    # allowance; whoever fills it from several addresses holds the owner back 5 minutes at most
    # after they stop. A code lives in the session that asked, so theirs never voids the owner's.
    "request_login_code": "2/5m/ip,10/h/ip,5/5m/key",
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
    "reauthenticate": "10/m/user",
    "confirm_email": "1/3m/key",
    # Blind mode's switch (accounts.views.blind_mode): per address, then per account.
    "blind_mode": "30/m/ip",
    "blind_mode_account": "10/m/user",
}

# --- Email ----------------------------------------------------------------------------------
# Django 6.1's MAILERS (EMAIL_BACKEND and EMAIL_HOST are deprecated): SMTP when a host is given.
EMAIL_SMTP_HOST = env_str("EMAIL_HOST")
if EMAIL_SMTP_HOST:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": EMAIL_SMTP_HOST,
                "port": env_int("EMAIL_PORT", 587),
                "username": env_str("EMAIL_HOST_USER"),
                "password": env_str("EMAIL_HOST_PASSWORD"),
                "use_tls": env_bool("EMAIL_USE_TLS", default=True),
                "timeout": 10,
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Durak club <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Language -------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True
# Each page is in the viewer's own zone (durak_site.middleware; UTC until the browser says).
# Dates for people use the named formats of durak_site/formats (ru: "1 декабря 2026 г.").
FORMAT_MODULE_PATH = ["durak_site.formats"]

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
#: Where collectstatic gathers the files (elsewhere for a test that runs the production settings).
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
#: The match page's turn chime (static/sounds/turn.wav): some systems' mime tables lack .wav.
WHITENOISE_MIMETYPES = {".wav": "audio/wav"}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- Security -------------------------------------------------------------------------------
# The policy applies in every mode so that a violation shows up during development already.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# --- Logging --------------------------------------------------------------------------------
LOG_LEVEL = env_str("DJANGO_LOG_LEVEL", "INFO").upper()
LOG_FORMAT = env_str("DJANGO_LOG_FORMAT", "json" if PRODUCTION else "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Every line says its request (or frame, or task) and the match and version it is about
    # (durak_site.logcontext): fields of the JSON format, a bracket of the text one.
    "filters": {"context": {"()": "durak_site.logcontext.ContextFilter"}},
    "formatters": {
        "json": {"()": "durak_site.logging.JsonFormatter"},
        "text": {
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s match=%(match_id)s"
            " v=%(version)s]: %(message)s"
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["context"]},
        # ERRORs counted per minute in Redis (or the cache), for the staff's ops page (ops.errors).
        "errors": {"class": "ops.errors.ErrorCountHandler", "level": "ERROR"},
    },
    "root": {"handlers": ["console", "errors"], "level": LOG_LEVEL},
    "loggers": {
        "django.request": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        "celery": {"level": "WARNING"},
    },
}

#: Password of the ``demo`` staff account made by ``manage.py ensure_demo`` (local use only).
DEMO_PASSWORD = env_str("DEMO_PASSWORD", "" if PRODUCTION else "durak-demo")

# --- Operations (docs/operations.md) --------------------------------------------------------
#: Error reports go to Sentry when set (ops.sentry removes every secret first).
SENTRY_DSN = env_str("SENTRY_DSN")
#: The bearer token of ``/ops/metrics``; unset, only a request straight from this host may scrape.
OPS_METRICS_TOKEN = env_str("OPS_METRICS_TOKEN")
