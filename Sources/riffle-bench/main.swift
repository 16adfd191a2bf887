print("riffle-bench")
