# The project's own test input, written for its importer tests (not a copy of a published
# file): a recipe in the shape of NeMo 2.0's Python recipes, which the importer refuses as
# code. Its `recipe.` assignments are Llama 3 70B pretraining defaults: TP 4, PP 4, five
# virtual stages, CP 2, sequence parallelism, 512 sequences of 8,192, one a microbatch.
from types import SimpleNamespace


def pretrain_recipe(name="llama3_70b", num_nodes=4):
    recipe = SimpleNamespace(
        name=name,
        trainer=SimpleNamespace(num_nodes=num_nodes, strategy=SimpleNamespace()),
        data=SimpleNamespace(),
    )
    recipe.trainer.strategy.tensor_model_parallel_size = 4
    recipe.trainer.strategy.pipeline_model_parallel_size = 4
    recipe.trainer.strategy.virtual_pipeline_model_parallel_size = 5
    recipe.trainer.strategy.context_parallel_size = 2
    recipe.trainer.strategy.sequence_parallel = True
    recipe.data.seq_length = 8192
    recipe.data.global_batch_size = 512
    recipe.data.micro_batch_size = 1
    return recipe
