#!/bin/bash
# tools/funclen.sh [N]: the N longest C functions of src/ and confgen/ (lines, file:function), from
# universal-ctags' start and end lines: STYLE's "~80 lines, else a reason above it" checked by eye.
ctags -R --languages=C --kinds-C=f --fields=+ne -o - src confgen 2>/dev/null |
 awk -F'\t' '{ s=""; e=""; for (i=4;i<=NF;i++) { if ($i ~ /^line:/) s=substr($i,6); if ($i ~ /^end:/) e=substr($i,5) } if (s!="" && e!="") print e-s+1 "\t" $2 ":" $1 }' |
 sort -rn | head -${1:-25}
