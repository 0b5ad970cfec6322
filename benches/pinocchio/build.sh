#!/bin/sh
# Builds Pinocchio's side of `cargo bench --bench robots` as target/pinocchio-bench:
# bench.cpp compiled against the headers of the `pin` wheel (Pinocchio's algorithms
# instantiated in this program, -O3, one thread, the generic x86-64 target that a default
# cargo build also uses), in a virtual environment installed from the package registry.
set -eu
cd "$(dirname "$0")/../.."
venv=${PINOCCHIO_VENV:-target/pinocchio-venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q pin cmeel-eigen cmeel-urdfdom-headers
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
prefix="$site/cmeel.prefix"
"$venv/bin/python" -c 'import pinocchio; print("Pinocchio", pinocchio.__version__)'
g++ -O3 -DNDEBUG -std=c++17 \
    -DBOOST_MPL_LIMIT_LIST_SIZE=30 -DBOOST_MPL_LIMIT_VECTOR_SIZE=30 \
    -DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS -DBOOST_FUSION_INVOKE_MAX_ARITY=12 \
    -DPINOCCHIO_WITH_URDFDOM -DPINOCCHIO_URDFDOM_HEADERS_MAJOR_VERSION=3 \
    -DPINOCCHIO_URDFDOM_HEADERS_MINOR_VERSION=0 -DPINOCCHIO_URDFDOM_HEADERS_PATCH_VERSION=0 \
    -I"$prefix/include" -I"$prefix/include/eigen3" -I"$prefix/include/urdfdom_headers" \
    -I"$prefix/include/urdfdom" \
    benches/pinocchio/bench.cpp -o target/pinocchio-bench \
    -L"$prefix/lib" -lpinocchio_parsers -lpinocchio_default -lurdfdom_model \
    -Wl,-rpath,"$prefix/lib"
echo "built target/pinocchio-bench"
