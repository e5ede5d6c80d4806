#!/usr/bin/env bash
# `make deploy-local`: a throwaway PostgreSQL, two `hearts serve` processes over it and nginx
# in front of them, all on loopback, to try several processes by hand. Ctrl-C stops it all and
# removes the directory. HEARTS_DEPLOY_PORT (8080) is nginx's port.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-postgres.sh
bash scripts/ensure-nginx.sh
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    echo "nginx is missing; install Debian's nginx package first." >&2
    exit 1
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
PG=/usr/lib/postgresql/15/bin
PORT=${HEARTS_DEPLOY_PORT:-8080}
DIR=$(mktemp -d /tmp/hearts-deploy-XXXXXX)
free_port() { .venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PGPORT=$(free_port)
AS=()
if [ "$(id -u)" = "0" ]; then chown postgres: "$DIR"; AS=(runuser -u postgres --); fi
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -f "$DIR/nginx.pid" ] && kill "$(cat "$DIR/nginx.pid")" 2>/dev/null || true
    "${AS[@]}" "$PG/pg_ctl" -D "$DIR/pg" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$DIR"
}
trap cleanup EXIT INT TERM
"${AS[@]}" "$PG/initdb" -D "$DIR/pg" -U hearts -A trust --no-sync >/dev/null
"${AS[@]}" "$PG/pg_ctl" -D "$DIR/pg" -l "$DIR/pg.log" -w \
    -o "-p $PGPORT -k $DIR -c listen_addresses=127.0.0.1" start >/dev/null
"${AS[@]}" "$PG/createdb" -h 127.0.0.1 -p "$PGPORT" -U hearts hearts
export HEARTS_DATABASE_URL="postgresql://hearts@127.0.0.1:$PGPORT/hearts"
export HEARTS_DATA_DIR="$DIR/data"
upstreams=""
metrics=""
for n in 1 2; do
    port=$(free_port)
    metrics_port=$(free_port)  # each process's Prometheus metrics, on loopback (docs/deploy.md)
    .venv/bin/hearts serve --port "$port" --trusted-host localhost --trusted-host 127.0.0.1 \
        --metrics-port "$metrics_port" >"$DIR/serve-$n.log" 2>&1 &
    pids+=($!)
    upstreams="$upstreams server 127.0.0.1:$port max_fails=1 fail_timeout=5s;"
    metrics="$metrics http://127.0.0.1:$metrics_port/metrics"
done
sed -e "s|@UPSTREAMS@|$upstreams|" -e "s|@PORT@|$PORT|" deploy/nginx-hearts.conf >"$DIR/site.conf"
cat >"$DIR/nginx.conf" <<CONF
daemon on;
pid $DIR/nginx.pid;
error_log $DIR/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log $DIR/nginx-access.log;
    client_body_temp_path $DIR/nginx; proxy_temp_path $DIR/nginx; fastcgi_temp_path $DIR/nginx;
    uwsgi_temp_path $DIR/nginx; scgi_temp_path $DIR/nginx;
    include $DIR/site.conf;
}
CONF
# nginx gives its temporary folders to its worker's user: its own folder, never $DIR itself
# (then PostgreSQL's user could no longer reach its cluster in $DIR/pg, nor stop it).
mkdir -p "$DIR/nginx"
sleep 3
"$NGINX" -c "$DIR/nginx.conf" -p "$DIR"
echo "Hearts: two processes over PostgreSQL behind nginx at http://127.0.0.1:$PORT (Ctrl-C stops)"
echo "Their metrics:$metrics"
wait "${pids[@]}"
