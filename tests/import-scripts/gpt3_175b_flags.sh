#!/bin/bash
# The project's own test input, written for its importer tests (not a copy of a published
# script): Megatron-LM flags for GPT-3 175B's shape (Brown et al. 2020, Table 2.1: 96 layers,
# 12,288 wide, 96 heads, 2,048 tokens, a 4h GELU MLP) on TP 8 and PP 16, 1,536 sequences a
# step of one a microbatch, reached by a step batch schedule. The flags sit in bash arrays.
# No --vocab-size: the tokenizer is named by its files, so the vocabulary stays the reader's.

GPUS_PER_NODE=8
NODES=${NODES:-24}

LAUNCH=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NODES
)

MODEL=(
    --num-layers 96
    --hidden-size 12288
    --num-attention-heads 96
    --seq-length 2048
    --max-position-embeddings 2048
)

TRAINING=(
    --micro-batch-size 1
    --global-batch-size 1536
    --step-batch-size-schedule "0:16 12B:1536"
    --train-iters 500000
    --lr 6.0e-5
    --fp16
)

PARALLEL=(
    --tensor-model-parallel-size 8
    --pipeline-model-parallel-size 16
)

DATA=(
    --data-path $DATA_PATH
    --vocab-file $VOCAB_FILE
    --merge-file $MERGE_FILE
)

torchrun "${LAUNCH[@]}" pretrain_gpt.py \
    "${MODEL[@]}" "${TRAINING[@]}" "${PARALLEL[@]}" "${DATA[@]}"
