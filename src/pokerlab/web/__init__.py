"""pokerlab's web simulator: a JSON API mirroring the CLI and a static page, served by
``pokerlab serve`` (needs the ``[web]`` extra: FastAPI and uvicorn).

``pokerlab.web.app.create_app`` builds the app; ``tasks`` holds what each route computes,
``pool`` the worker processes, ``models`` the request bodies, ``static/`` the page.
"""
