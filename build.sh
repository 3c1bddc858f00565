#!/usr/bin/env bash
# README command 1: installs the Debian packages risec needs (when missing),
# configures and builds risec and its tests into build/.
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake make g++ gcc clang clang-format ccache libgtest-dev libyaml-cpp-dev libcli11-dev libkainjow-mustache-dev libz3-dev
          ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
          llvm-14-dev libclang-14-dev libclang-cpp14-dev libclang-common-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "build.sh: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j2
