print("riffle")
