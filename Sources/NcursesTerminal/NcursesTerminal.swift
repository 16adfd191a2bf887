import RiffleTUI
import CNcursesw
