#!/bin/bash
# The reader trained on a lent GPU machine in one call (the device tool: 16 cores, nothing installed but
# torch, OpenCV and onnxruntime, and a few minutes): images made on all cores, crops cut (also by the shipped
# detector's boxes), then three readers trained side by side until a time limit -- the shipped one
# continued, one from scratch, one twice as wide continued from it.  Each stage is tried on a few images
# first, so a failure costs seconds.  What comes back: $OUT/log.txt, $OUT/narrow.tar and $OUT/wide.tar (each reader's
# reader.pt, reader.onnx and log), to measure here as the model card says.
#
#   device run:  OUT=$OUT bash models/train_reader_gpu.sh          (timeout_s 600)
#   here, small: OUT=/tmp/o SCALE=0.004 END_S=90 GEN_END_S=40 DEV=cpu W=2 PY=/tmp/train-venv/bin/python bash models/train_reader_gpu.sh
#
# SCALE: image counts times this; END_S: seconds from the start by which training ends; GEN_END_S: no
# style's images begun after this; DEV: cuda or cpu; W: processes; PY: the Python with torch.
set -u
S=${SCALE:-1}; END=${END_S:-545}; GEN_END=${GEN_END_S:-190}; DEV=${DEV:-cuda}; W=${W:-16}; PY=${PY:-python3}
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
n() { python3 -c "print(max(4, round($1 * $S)))"; }
D=/tmp/rdata; rm -rf $D /tmp/smoke
exec > >(tee -a $OUT/log.txt) 2>&1
el start; nproc; nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv 2>/dev/null
$PY -c "import torch,cv2,numpy,onnxruntime; print(torch.__version__, torch.cuda.is_available(), cv2.__version__, numpy.__version__, onnxruntime.__version__)"
# Every stage on a few images first, so that a failure costs seconds.
$PY datasets/make_detector_data.py --out /tmp/smoke --train 24 --val 8 --test 0 --cross 0 --dots 0 --workers $W || exit 3
$PY models/train_reader.py --data /tmp/smoke --whole-tile --detector-boxes --cut-workers $W --save-crops /tmp/smoke/crops || exit 4
$PY models/train_reader.py --data /tmp/smoke --whole-tile --crops /tmp/smoke/crops --device $DEV --minutes 0.05 \
    --loader-workers $(( W / 3 - 1 > 1 ? W / 3 - 1 : 1 )) --batch 512 --width 2 --init models/reader.pt --out /tmp/smoke/r || exit 5
el smoke passed
G() {  # count first-seed style
  if [ $(( $(date +%s) - T0 )) -ge $GEN_END ]; then el "left out: $3 from $2 (past the generation deadline)"; return; fi
  $PY datasets/make_detector_data.py --out $D --train $(n $1) --train-start $2 --train-style $3 --val 0 --test 0 --cross 0 --dots 0 --workers $W
}
$PY datasets/make_detector_data.py --out $D --train $(n 8000) --val $(n 200) --test 0 --cross 0 --dots 0 --workers $W || exit 6
G 4000 24000 main   # from here on images the detector never trained on
G 2000 12000 glossy
G 2000 14000 dots
G 2000 16000 dim
G 1500 10000 engraved
G 1000 21000 closeup
el images made; wc -l $D/train.jsonl
$PY models/train_reader.py --data $D --whole-tile --detector-boxes --detector-skip $(n 8000) --detector-limit $(n 10000) \
    --cut-workers $W --save-crops $D/crops || exit 7
el crops cut; du -sh $D/crops
MIN=$(python3 -c "print(max(0.1, ($END - ($(date +%s) - $T0)) / 60 - 0.3))")
el "training three readers for $MIN min"
C="--data $D --whole-tile --crops $D/crops --device $DEV --minutes $MIN --loader-workers $(( W / 3 - 1 > 1 ? W / 3 - 1 : 1 )) --batch 512"
mkdir -p $D/w1ft $D/w1new $D/w2ft
$PY models/train_reader.py $C --init models/reader.pt --lr 1e-3 --out $D/w1ft > $D/w1ft/log.txt 2>&1 & P1=$!
$PY models/train_reader.py $C --lr 3e-3 --out $D/w1new > $D/w1new/log.txt 2>&1 & P2=$!
$PY models/train_reader.py $C --width 2 --init models/reader.pt --lr 1e-3 --out $D/w2ft > $D/w2ft/log.txt 2>&1 & P3=$!
wait $P1 $P2 $P3  # (a bare wait would wait for the tee above too)
el trained
for m in w1ft w1new w2ft; do echo "== $m"; grep -v "^  epoch" $D/$m/log.txt | tail -25; done
tar -C $D -cf $OUT/narrow.tar w1ft w1new  # (two files: each well under the 16 MiB a returned file may have)
tar -C $D -cf $OUT/wide.tar w2ft
el done; ls -la $OUT
