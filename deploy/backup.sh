#!/bin/sh
# Back up the club's PostgreSQL database: one pg_dump in the custom format, written under a
# temporary name and renamed when complete, so a backup file is never half-written.
#
#   DATABASE_URL=postgres://... BACKUP_DIR=/var/backups/durak deploy/backup.sh
#
# BACKUP_KEEP_DAYS (default 14): older dumps in BACKUP_DIR are deleted after a good one.
# Prints the path of the new dump. Run by durak-backup.timer (deploy/systemd/).
set -eu

: "${DATABASE_URL:?DATABASE_URL must be set}"
: "${BACKUP_DIR:?BACKUP_DIR must be set}"
keep_days="${BACKUP_KEEP_DAYS:-14}"

mkdir -p "$BACKUP_DIR"
target="$BACKUP_DIR/durak-$(date -u +%Y%m%dT%H%M%SZ).dump"
partial="$target.partial"
trap 'rm -f "$partial"' EXIT

# One consistent snapshot of every table (pg_dump runs in one repeatable-read transaction), so live
# matches, their moves and their clocks are as they were at one instant.
pg_dump --format=custom --no-owner --no-privileges --file="$partial" "$DATABASE_URL"
mv "$partial" "$target"
trap - EXIT

find "$BACKUP_DIR" -maxdepth 1 -name 'durak-*.dump' -mtime +"$keep_days" -delete
echo "$target"
