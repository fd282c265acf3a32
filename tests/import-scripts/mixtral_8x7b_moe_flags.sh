#!/bin/bash
# The project's own test input, written for its importer tests (not a copy of a published
# script): Mixtral 8x7B's shape (32 layers, 4,096 wide, 32 heads in 8 query groups, eight
# SwiGLU experts of 14,336, two a token) on PP 4 with the experts over EP 8, 256 sequences of
# 4,096 a step of one a microbatch, sequence parallel, distributed optimizer.

MODEL=(
    --num-layers 32
    --hidden-size 4096
    --ffn-hidden-size 14336
    --swiglu
    --num-attention-heads 32
    --group-query-attention
    --num-query-groups 8
    --seq-length 4096
    --max-position-embeddings 32768
)

MOE=(
    --num-experts 8
    --moe-router-topk 2
    --moe-grouped-gemm
)

PARALLEL=(
    --tensor-model-parallel-size 1
    --pipeline-model-parallel-size 4
    --expert-model-parallel-size 8
    --use-distributed-optimizer
    --sequence-parallel
)

TRAINING=(
    --micro-batch-size 1
    --global-batch-size 256
    --bf16
    --tokenizer-type Llama2Tokenizer
    --tokenizer-model ${TOKENIZER_MODEL}
)

torchrun --nproc_per_node 8 pretrain_gpt.py \
    "${MODEL[@]}" "${MOE[@]}" "${PARALLEL[@]}" "${TRAINING[@]}"
