#!/bin/sh
# Restore a dump made by deploy/backup.sh into an EMPTY database (made with createdb beforehand).
#
#   deploy/restore.sh /var/backups/durak/durak-20261205T030000Z.dump postgres://.../durak_restored
#
# Refuses a database that already holds tables. Everything is restored in one transaction: on any
# error nothing is left behind. Then point DATABASE_URL at it and start the site as after any
# deploy (deploy/README.md, "Restore"): the release step re-arms the bot turns, and beat's clock
# plays every deadline that ran out while the site was down.
set -eu

dump="${1:?usage: restore.sh DUMP TARGET_DATABASE_URL}"
target="${2:?usage: restore.sh DUMP TARGET_DATABASE_URL}"

[ -r "$dump" ] || { echo "restore.sh: cannot read $dump" >&2; exit 2; }
tables=$(psql --no-psqlrc --tuples-only --no-align --dbname="$target" \
    --command="SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
if [ "$tables" != "0" ]; then
    echo "restore.sh: the target database is not empty ($tables tables); use a fresh one" >&2
    exit 3
fi
pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$target" "$dump"
echo "restored $dump"
