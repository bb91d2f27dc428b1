#!/usr/bin/env bash
# Makes the signed cases of tests/package/ (security option 1, SOL004 §5.1-§5.3): packages
# whose manifest (and one artifact) are signed by OpenSSL with the test PKI of
# tosca-core/tests/fixtures/pki/ (make.sh there). Rewrites the cases' `package/` folders; run
# `UPDATE_PACKAGE=1 cargo test -p tosca-tests --test package` after, and read the diff.
set -euo pipefail
cd "$(dirname "$0")"
pki=../../tosca-core/tests/fixtures/pki

# sign FILE [openssl options]: a detached CMS signature of FILE in PEM, on stdout.
sign() {
    local file="$1"
    shift
    openssl cms -sign -binary -in "$file" -signer "$pki/signer.pem" -inkey "$pki/signer.key" -outform PEM "$@"
}

# manifest DIR: DIR/main.mf listing every other file of DIR with its SHA-256, the script with
# its Signature and Certificate; not signed yet.
manifest() {
    (
        cd "$1"
        {
            printf 'metadata:\n    vnf_provider_id: Acme\n    vnf_product_name: vRouter\n'
            printf '    vnf_release_date_time: 2024-05-01T10:00:00+00:00\n    vnf_package_version: 1.0\n'
            find . -type f ! -name main.mf | sed 's|^\./||' | LC_ALL=C sort | while read -r file; do
                printf '\nSource: %s\nAlgorithm: SHA-256\nHash: %s\n' "$file" "$(sha256sum "$file" | cut -d' ' -f1)"
                if [ "$file" = Scripts/install.sh ]; then
                    printf 'Signature: Scripts/install.sig.cms\nCertificate: Scripts/install.cert\n'
                fi
            done
        } > main.mf
    )
}

# base CASE META_EXTRA: the package's files but the manifest.
base() {
    rm -rf "$1/package"
    mkdir -p "$1/package/TOSCA-Metadata" "$1/package/Definitions" "$1/package/Scripts" "$1/package/Files"
    printf '1.0: first release\n' > "$1/package/Files/ChangeLog.txt"
    printf 'TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: Acme\nEntry-Definitions: Definitions/main.yaml\nETSI-Entry-Manifest: main.mf\nETSI-Entry-Change-Log: Files/ChangeLog.txt\n%b' \
        "$2" > "$1/package/TOSCA-Metadata/TOSCA.meta"
    printf 'tosca_definitions_version: tosca_simple_yaml_1_3\n' > "$1/package/Definitions/main.yaml"
    printf '#!/bin/sh\necho installed\n' > "$1/package/Scripts/install.sh"
    sign "$1/package/Scripts/install.sh" -nocerts > "$1/package/Scripts/install.sig.cms"
    cp "$pki/signer-chain.pem" "$1/package/Scripts/install.cert"
}

# The manifest signed, the signature carrying the signer's chain.
base valid-signed ''
manifest valid-signed/package
sign valid-signed/package/main.mf -certfile "$pki/intermediate.pem" >> valid-signed/package/main.mf

# The signature carrying no certificate: TOSCA.meta's ETSI-Entry-Certificate names it.
base valid-signed-entry-certificate 'ETSI-Entry-Certificate: Files/signer.cert\n'
cp "$pki/signer-chain.pem" valid-signed-entry-certificate/package/Files/signer.cert
manifest valid-signed-entry-certificate/package
sign valid-signed-entry-certificate/package/main.mf -nocerts >> valid-signed-entry-certificate/package/main.mf

# The manifest edited after it was signed.
base invalid-signed-manifest ''
manifest invalid-signed-manifest/package
sign invalid-signed-manifest/package/main.mf -certfile "$pki/intermediate.pem" >> invalid-signed-manifest/package/main.mf
sed -i 's/vnf_package_version: 1.0/vnf_package_version: 1.1/' invalid-signed-manifest/package/main.mf

# The script changed after it was signed and listed.
base invalid-signed-artifact ''
manifest invalid-signed-artifact/package
sign invalid-signed-artifact/package/main.mf -certfile "$pki/intermediate.pem" >> invalid-signed-artifact/package/main.mf
printf '#!/bin/sh\necho tampered\n' > invalid-signed-artifact/package/Scripts/install.sh
