#!/usr/bin/env bash
# Make (once) the small CUDA root that clang 19 needs to offload OpenMP to NVIDIA GPUs here:
# ptxas and nvlink 12.4 from Debian's nvidia-cuda-toolkit (trixie, non-free), because CUDA 13's
# ptxas writes cubins (ELF ABI 8) that LLVM 19's offload runtime rejects; libdevice from the
# installed CUDA; and a cuda.h that reports CUDA_VERSION 12040.
#   make-clang-cuda-root.sh [DEST]   (default: $AWAVE_CACHE/clang-cuda-root-12.4)
# Prints DEST on the last line. The system's apt configuration is not touched.
set -euo pipefail
cache=${AWAVE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/awave}
dest=${1:-$cache/clang-cuda-root-12.4}
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ -f "$dest/.complete" ]; then echo "$dest"; exit 0; fi
[ -d "$cuda/nvvm/libdevice" ] || { echo "make-clang-cuda-root: no libdevice in $cuda/nvvm (set CUDA_HOME)" >&2; exit 1; }

mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/parts" "$work/lists/partial" "$work/dl" "$work/x"
cat > "$work/parts/trixie-nonfree.sources" <<SRC
Types: deb
URIs: $mirror
Suites: trixie
Components: non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt_opts=(-q -oDir::Etc::SourceList=/dev/null "-oDir::Etc::SourceParts=$work/parts"
          "-oDir::State::Lists=$work/lists" -oAPT::Architecture=amd64)
apt-get "${apt_opts[@]}" update >/dev/null
(cd "$work/dl" && apt-get "${apt_opts[@]}" download nvidia-cuda-toolkit >/dev/null 2>&1)
deb=$(ls "$work"/dl/nvidia-cuda-toolkit_*.deb) || { echo "make-clang-cuda-root: download failed" >&2; exit 1; }
dpkg -x "$deb" "$work/x"
ptxas=$(find "$work/x" -type f -name ptxas | head -1)
nvlink=$(find "$work/x" -type f -name nvlink | head -1)
[ -n "$ptxas" ] && [ -n "$nvlink" ] || { echo "make-clang-cuda-root: no ptxas/nvlink in $deb" >&2; exit 1; }
rm -rf "$dest"; mkdir -p "$dest/bin" "$dest/include" "$dest/nvvm"
cp "$ptxas" "$nvlink" "$dest/bin/"
cp -r "$cuda/nvvm/libdevice" "$dest/nvvm/"
echo '#define CUDA_VERSION 12040' > "$dest/include/cuda.h"
# No grep -q: under pipefail it can close the pipe early and fail the check with SIGPIPE.
"$dest/bin/ptxas" --version | grep "V12.4" >/dev/null || { echo "make-clang-cuda-root: ptxas is not 12.4" >&2; exit 1; }
basename "$deb" > "$dest/.source"
touch "$dest/.complete"
echo "$dest"
