#!/bin/bash
# The project's own test input, written for its importer tests (not a copy of a published
# script): Llama 3 8B's shape (32 layers, 4,096 wide, 32 heads in 8 query groups of 128, a
# SwiGLU MLP of 14,336, 128,256 tokens) trained in FP8, its parallel sizes and batch given as
# shell variables with defaults (`${TP_SIZE:-1}`), sequence parallel, distributed optimizer.

TP_SIZE=${TP_SIZE:-1}
CP_SIZE=${CP_SIZE:-1}
PP_SIZE=${PP_SIZE:-1}
MICRO_BATCH=1
GLOBAL_BATCH=128
SEQ_LEN=8192

torchrun --nproc_per_node 8 pretrain_gpt.py \
    --num-layers 32 \
    --hidden-size 4096 \
    --ffn-hidden-size 14336 \
    --swiglu \
    --num-attention-heads 32 \
    --group-query-attention \
    --num-query-groups 8 \
    --kv-channels 128 \
    --seq-length $SEQ_LEN \
    --max-position-embeddings $SEQ_LEN \
    --vocab-size 128256 \
    --micro-batch-size $MICRO_BATCH \
    --global-batch-size $GLOBAL_BATCH \
    --tensor-model-parallel-size $TP_SIZE \
    --context-parallel-size ${CP_SIZE} \
    --pipeline-model-parallel-size ${PP_SIZE} \
    --sequence-parallel \
    --use-distributed-optimizer \
    --bf16 \
    --fp8-format hybrid \
    --fp8-amax-history-len 1024 \
    --fp8-amax-compute-algo max \
    --tokenizer-type HuggingFaceTokenizer \
    --tokenizer-model $TOKENIZER_DIR
