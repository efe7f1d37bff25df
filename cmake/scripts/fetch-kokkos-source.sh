#!/usr/bin/env bash
# Fetch Kokkos 3.4.01 source from Debian's `trilinos` 13.2.0 source package (bookworm) and
# extract only packages/kokkos into DEST. Debian's mirror is the one source of Kokkos that
# builds with the CUDA and OpenMPTarget backends here (docs/toolchain.md); apt is pointed at a
# temporary sources list so the system's apt configuration is left untouched.
set -euo pipefail
dest=${1:?usage: fetch-kokkos-source.sh DEST}
[ -f "$dest/CMakeLists.txt" ] && exit 0

mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/parts" "$work/lists/partial" "$work/dl"
cat > "$work/parts/bookworm-src.sources" <<SRC
Types: deb-src
URIs: $mirror
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt_opts=(-q -oDir::Etc::SourceList=/dev/null "-oDir::Etc::SourceParts=$work/parts"
          "-oDir::State::Lists=$work/lists")
apt-get "${apt_opts[@]}" update >/dev/null
(cd "$work/dl" && apt-get "${apt_opts[@]}" source --download-only trilinos=13.2.0-4 >/dev/null)
orig=$(ls "$work"/dl/trilinos_13.2.0.orig.tar.*)
mkdir -p "$work/x"
tar -xf "$orig" -C "$work/x" --wildcards '*/packages/kokkos/*'
src=$(dirname "$(ls -d "$work"/x/*/packages/kokkos/CMakeLists.txt)")
grep -q 'Kokkos_VERSION_MINOR 4' "$src/CMakeLists.txt" || { echo "fetch-kokkos-source: unexpected Kokkos version in trilinos source" >&2; exit 1; }
mkdir -p "$(dirname "$dest")"
rm -rf "$dest.tmp" && mv "$src" "$dest.tmp" && mv "$dest.tmp" "$dest"
echo "Kokkos source in $dest"
