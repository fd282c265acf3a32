#!/bin/bash
# The project's own test input, written for its importer tests (not a copy of a published
# script): the same GPT-3 175B run as gpt3_175b_flags.sh in the older spelling, every flag on
# one command line continued with backslashes, the batch reached by --rampup-batch-size
# (start, increment, samples) instead of a step schedule.

torchrun --nproc_per_node 8 --nnodes 24 pretrain_gpt.py \
    --tensor-model-parallel-size 8 \
    --pipeline-model-parallel-size 16 \
    --num-layers 96 \
    --hidden-size 12288 \
    --num-attention-heads 96 \
    --seq-length 2048 \
    --max-position-embeddings 2048 \
    --micro-batch-size 1 \
    --global-batch-size 1536 \
    --rampup-batch-size 16 16 5859375 \
    --train-iters 500000 \
    --fp16 \
    --data-path /data/gpt3/text_document \
    --vocab-file /data/gpt3/vocab.json \
    --merge-file /data/gpt3/merges.txt
